// A pair found apart stays certified apart only while its bodies cannot have closed the gap
// (plugin/separation_certificate.h): the displacement bound holds for every point, a certificate
// that holds never hides a contact, and a body teleported onto another gets its patch at once.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <cstdio>
#include <random>

#include "adapters/shape_geometry.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/pair_contact.h"
#include "plugin/separation_certificate.h"
#include "random_pose.h"
#include "test_world.h"

namespace hydro {
namespace bullet {
namespace {

using test::RandomPose;

// A small random motion: a turn of up to `angle` about a random axis and a shift of up to `shift`.
RigidTransform Nudge(const RigidTransform& X, std::mt19937* rng, double angle, double shift) {
  std::uniform_real_distribution<double> u(-1, 1);
  RigidTransform moved = X;
  moved.linear() = Eigen::AngleAxisd(angle * u(*rng), Vector3(u(*rng), u(*rng), u(*rng)).normalized()) * X.linear();
  moved.translation() += shift * Vector3(u(*rng), u(*rng), u(*rng));
  return moved;
}

TEST(SeparationCertificateTest, NoPointMovesFartherThanTheBound) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 1000; ++trial) {
    const RigidTransform X_then = RandomPose(&rng, 1.0);
    const RigidTransform X_now = Nudge(X_then, &rng, 0.5, 0.1);
    const double radius = 0.3;
    const double bound = MaxPointDisplacement(X_then, X_now, radius);
    const Vector3 q = radius * Vector3(u(rng), u(rng), u(rng)).normalized() * std::abs(u(rng));
    EXPECT_LE(((X_now * q) - (X_then * q)).norm(), bound * (1 + 1e-12));
  }
  // Unturned, every point moves by the shift, even for an unbounded half-space.
  RigidTransform X = RigidTransform::Identity(), shifted = X;
  shifted.translation() = Vector3(0, 0, 2e-3);
  EXPECT_DOUBLE_EQ(MaxPointDisplacement(X, shifted, std::numeric_limits<double>::infinity()), 2e-3);
}

// Random box pairs certified apart, then moved a little: whenever the certificate still holds,
// their surface is empty. Both outcomes occur (measured: of 1,293 pairs certified, the
// certificate held for 312 after the motion and failed for 981).
TEST(SeparationCertificateTest, AHeldCertificateNeverHidesAContact) {
  btHydroelasticProperties soft;
  soft.m_hydroelasticModulus = 1e6;
  btBoxShape box(btVector3(0.1, 0.2, 0.05)), other(btVector3(0.15, 0.05, 0.1));
  const ShapeGeometry g_a = MakeShapeGeometry(box, &soft);
  const ShapeGeometry g_b = MakeShapeGeometry(other, &soft);
  const double extent_a = CalcExtentRadius(g_a), extent_b = CalcExtentRadius(g_b);
  EXPECT_NEAR(extent_a, btVector3(0.1, 0.2, 0.05).length(), 0.02);  // the mesh's box, margins included
  std::mt19937 rng(5);
  int held = 0, failed = 0, certified = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const RigidTransform X_WA = RandomPose(&rng, 0.25), X_WB = RandomPose(&rng, 0.25);
    Vector3 axes[7];
    double gaps[7];
    const int n = CalcGapsAlongAxes(g_a, X_WA, g_b, X_WB, axes, gaps);
    double widest = 0;
    for (int k = 0; k < n; ++k) widest = std::max(widest, gaps[k]);
    if (widest <= 0) continue;
    ++certified;
    SeparationCertificate certificate;
    certificate.Certify(widest, X_WA, extent_a, 1.0, X_WB, extent_b, 2.0);
    const RigidTransform X_WA_now = Nudge(X_WA, &rng, 0.3, 0.05), X_WB_now = Nudge(X_WB, &rng, 0.3, 0.05);
    if (certificate.StillApartBy(0.0, X_WA_now, 1.0, X_WB_now, 2.0)) {
      ++held;
      ContactSurface surface;
      ASSERT_EQ(CalcPairSurface(g_a, X_WA_now, g_b, X_WB_now, &surface), PairSurfaceOutcome::kComputed);
      EXPECT_TRUE(surface.empty()) << "trial " << trial;
      // The closing bound counts against the gap, and a changed shape voids the certificate.
      EXPECT_FALSE(certificate.StillApartBy(1.0, X_WA_now, 1.0, X_WB_now, 2.0));
      EXPECT_FALSE(certificate.StillApartBy(0.0, X_WA_now, 1.5, X_WB_now, 2.0));
    } else {
      ++failed;
    }
  }
  std::printf("%d certified pairs: held %d, failed %d\n", certified, held, failed);
  EXPECT_GT(held, 50);
  EXPECT_GT(failed, 50);
  SeparationCertificate none;
  EXPECT_FALSE(none.StillApartBy(0.0, RigidTransform::Identity(), 0, RigidTransform::Identity(), 0));
}

// Two compliant shapes resting side by side on a rigid ground, their centres 0.25 m apart, stepped
// until their pair is certified apart; and how many patches they have.
class RestingApart {
 public:
  RestingApart(btCollisionShape* shape_a, btCollisionShape* shape_b)
      : tag_a_(shape_a, test::Compliant(1e6, 0.05)), tag_b_(shape_b, test::Compliant(1e6, 0.05)) {
    world_.AddBody(&ground_, 0, btVector3(0, 0, -0.5));
    a_ = world_.AddBody(shape_a, 1.0, btVector3(0, 0, 0.1));
    b_ = world_.AddBody(shape_b, 1.0, btVector3(0.25, 0, 0.1));
    world_.Step(30, 1.0 / 60);
  }
  int PatchesBetween() {
    int count = 0;
    for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(world_.dispatcher(), 1.0 / 60))
      if ((patch.m_body0 == a_ && patch.m_body1 == b_) || (patch.m_body0 == b_ && patch.m_body1 == a_))
        count += patch.m_numSolverPoints > 0;
    return count;
  }
  test::TestWorld& world() { return world_; }
  btRigidBody* b() { return b_; }

 private:
  const test::ScopedHydroelastic tag_a_, tag_b_;
  btBoxShape ground_{btVector3(5, 5, 0.5)};
  test::TestWorld world_;
  btRigidBody* a_{nullptr};
  btRigidBody* b_{nullptr};
};

// Two boxes side by side at rest: their pair is certified apart step after step. Teleported
// against its neighbour (setWorldTransform, no velocity), the box must get its patch in the very
// next step, as without the certificate; and one grown in place (setLocalScaling) until it
// overlaps must too.
TEST(SeparationCertificateTest, TeleportedOrGrownBodiesGetTheirPatchAtOnce) {
  for (bool grow : {false, true}) {
    btBoxShape box_a(btVector3(0.1, 0.1, 0.1)), box_b(btVector3(0.1, 0.1, 0.1));
    RestingApart pair(&box_a, &box_b);
    ASSERT_EQ(pair.PatchesBetween(), 0);
    if (grow) {
      box_b.setLocalScaling(btVector3(1.55, 1.0, 1.0));  // 0.155 m half-wide at 0.25 m: 5 mm into a
      pair.world().world()->updateSingleAabb(pair.b());
    } else {
      pair.b()->setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0.199, 0, 0.1)));
    }
    pair.world().Step(1, 1.0 / 60);
    EXPECT_EQ(pair.PatchesBetween(), 1) << (grow ? "grown" : "teleported");
  }
}

// The certificate's shape check reads a sphere's radius directly (not through Bullet's bounding
// sphere): a sphere grown in place by its scaling, or by its radius, must get its patch at once too.
TEST(SeparationCertificateTest, AGrownSphereGetsItsPatchAtOnce) {
  for (bool by_scaling : {true, false}) {
    btSphereShape ball_a(0.1), ball_b(0.1);
    RestingApart pair(&ball_a, &ball_b);
    ASSERT_EQ(pair.PatchesBetween(), 0);
    // 0.155 m at 0.25 m from a's centre: 5 mm into a.
    if (by_scaling)
      ball_b.setLocalScaling(btVector3(1.55, 1.55, 1.55));
    else
      ball_b.setUnscaledRadius(0.155);
    pair.world().world()->updateSingleAabb(pair.b());
    pair.world().Step(1, 1.0 / 60);
    EXPECT_EQ(pair.PatchesBetween(), 1) << (by_scaling ? "scaled" : "radius set");
  }
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
