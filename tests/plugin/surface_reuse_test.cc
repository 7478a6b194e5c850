// Spatial coherence (plugin/surface_reuse.h): a kept surface carried to new poses, its points'
// depths moved to first order, against the surface computed anew at those poses.
#include <gtest/gtest.h>

#include <btBulletCollisionCommon.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "adapters/shape_geometry.h"
#include "hydro/contact_surface.h"
#include "hydro/point_approximation.h"
#include "hydro/point_reduction.h"
#include "plugin/btHydroelasticWorldState.h"
#include "plugin/pair_contact.h"
#include "plugin/surface_reuse.h"
#include "test_world.h"
#include "tests/bullet_precision.h"
#include "tests/test_poses.h"

namespace hydro {
namespace bullet {
namespace {

btHydroelasticProperties Soft(double modulus) {
  btHydroelasticProperties p;
  p.m_hydroelasticModulus = modulus;
  return p;
}

std::shared_ptr<const ShapeGeometry> Geometry(const btCollisionShape& shape, const btHydroelasticProperties* p) {
  return std::make_shared<const ShapeGeometry>(MakeShapeGeometry(shape, p));
}

// What the solver takes from a patch: its elastic force Σ k·(−φ0)₊, its moment about a fixed
// point c, and its stiffness Σ k.
struct PatchSummary {
  double force{0};
  Vector3 moment{Vector3::Zero()};
  double stiffness{0};
};

PatchSummary Summarize(const std::vector<ContactPoint>& points, const Vector3& c) {
  PatchSummary s;
  for (const ContactPoint& point : points) {
    const double f = point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
    s.force += f;
    s.moment += (point.p_WC - c).cross(f * point.nhat_BA_W);
    s.stiffness += point.stiffness_N_per_m;
  }
  return s;
}

std::vector<ContactPoint> FreshPoints(const ShapeGeometry& a, const RigidTransform& X_WA, const ShapeGeometry& b,
                                      const RigidTransform& X_WB, ContactSurface* surface) {
  std::vector<ContactPoint> points;
  EXPECT_EQ(CalcPairSurface(a, X_WA, b, X_WB, surface), PairSurfaceOutcome::kComputed);
  MakeContactPoints(*surface, &points, PairPointQuadrature(a, b));
  BoundPointDepths(a, X_WA, b, X_WB, &points);
  return points;
}

using test::Pose;

// SurfaceReuse::Reuse, with the kept surface carried as the plugin carries it when it is read, and
// the points reduced to max_points anew when it gives them whole.
bool Reuse(SurfaceReuse* reuse, const ShapeGeometry* a, const RigidTransform& X_WA, const ShapeGeometry* b,
           const RigidTransform& X_WB, ContactSurface* surface, std::vector<ContactPoint>* points, int max_points = 0) {
  RigidTransform carry;
  const SurfaceReuseOutcome outcome = reuse->Reuse(a, X_WA, b, X_WB, points, &carry);
  if (outcome == SurfaceReuseOutcome::kNotReused) return false;
  if (outcome == SurfaceReuseOutcome::kReusedWhole) {
    EXPECT_GT(max_points, 0);
    std::vector<ContactPoint> reduced;
    ReduceContactPoints(*points, max_points, &reduced);
    *points = reduced;
  }
  *surface = reuse->surface();
  surface->TransformBy(carry);
  return true;
}

struct Errors {
  double force{0}, moment{0}, stiffness{0};  // relative: of F, of F·patch radius, of K
  double force_unchanged{0};                 // the force error of keeping φ0 as it was
  double tolerance{0}, slide_tolerance{0};   // the kept surface's
};

// The points reduced to at most max_points (none: all of them), as the plugin reduces them.
std::vector<ContactPoint> Reduced(const std::vector<ContactPoint>& points, int max_points,
                                  std::vector<int>* merged_into = nullptr) {
  if (max_points <= 0) return points;
  std::vector<ContactPoint> reduced;
  ReduceContactPoints(points, max_points, &reduced, merged_into);
  return reduced;
}

// Keeps the surface of a at X_WA and b at X_WB (its points reduced to max_points if that is
// positive), then moves a by `draws` random rigid motions that displace no point of the patch more
// than `fraction` of the tolerance along the patch's normal, nor more than `fraction` of the slide
// tolerance in all, reuses, and compares with the surface computed (and reduced) anew. Returns the
// largest errors.
Errors CompareWithFreshSurfaces(const std::shared_ptr<const ShapeGeometry>& a, const RigidTransform& X_WA,
                                const std::shared_ptr<const ShapeGeometry>& b, const RigidTransform& X_WB,
                                double fraction, int draws = 40, int max_points = 0) {
  ContactSurface surface;
  const std::vector<ContactPoint> kept = FreshPoints(*a, X_WA, *b, X_WB, &surface);
  SurfaceReuse reuse;
  if (max_points > 0) {
    std::vector<int> merged_into;
    const std::vector<ContactPoint> reduced = Reduced(kept, max_points, &merged_into);
    EXPECT_LT(reduced.size(), kept.size()) << max_points;
    reuse.Keep(a, X_WA, b, X_WB, surface, kept, &reduced, &merged_into);
  } else {
    reuse.Keep(a, X_WA, b, X_WB, surface, kept);
  }
  EXPECT_TRUE(reuse.has_surface());
  Errors errors;
  errors.tolerance = reuse.tolerance_m();
  errors.slide_tolerance = reuse.slide_tolerance_m();
  Vector3 c = Vector3::Zero();
  double area = 0;
  for (const ContactPoint& point : kept) {
    c += point.area_m2 * point.p_WC;
    area += point.area_m2;
  }
  c /= area;
  double reach = 0;  // of the patch about c
  for (const ContactPoint& point : kept) reach = std::max(reach, (point.p_WC - c).norm());
  const PatchSummary before = Summarize(kept, c);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-1, 1);
  // Across the normal n̄: a turn about an axis ⟂ n̄ by θ (which moves a point along n̄ by at most
  // θ·reach) and a move along n̄, half each of the tolerance (or of half the slide tolerance, if
  // less). Along the patch: a turn about n̄ and a slide ⟂ n̄, half each of what the slide tolerance
  // leaves. A turn about c by θ moves a point of the patch at most θ·reach.
  const Vector3& n = reuse.normal();
  const double across = fraction * std::min(reuse.tolerance_m(), 0.5 * reuse.slide_tolerance_m());
  const double along = std::max(fraction * reuse.slide_tolerance_m() - across, 0.0);
  auto perpendicular = [&] {
    const Vector3 v(uniform(rng), uniform(rng), uniform(rng));
    return (v - n.dot(v) * n).normalized().eval();
  };
  for (int k = 0; k < draws; ++k) {
    const double tilt = 0.5 * across / reach * std::abs(uniform(rng));
    const double twist = 0.5 * along / reach * uniform(rng);
    const Vector3 t = 0.5 * across * uniform(rng) * n + 0.5 * along * std::abs(uniform(rng)) * perpendicular();
    const Matrix3 R = (Eigen::AngleAxisd(twist, n) * Eigen::AngleAxisd(tilt, perpendicular())).toRotationMatrix();
    RigidTransform motion = Pose(t + c) * RigidTransform(R) * Pose(-c);
    const RigidTransform X_WA_moved = motion * X_WA;
    ContactSurface reused_surface, fresh_surface;
    std::vector<ContactPoint> reused;
    EXPECT_TRUE(Reuse(&reuse, a.get(), X_WA_moved, b.get(), X_WB, &reused_surface, &reused));
    const std::vector<ContactPoint> fresh = Reduced(FreshPoints(*a, X_WA_moved, *b, X_WB, &fresh_surface), max_points);
    const PatchSummary r = Summarize(reused, c), f = Summarize(fresh, c);
    errors.force = std::max(errors.force, std::abs(r.force - f.force) / f.force);
    errors.moment = std::max(errors.moment, (r.moment - f.moment).norm() / (f.force * reach));
    errors.stiffness = std::max(errors.stiffness, std::abs(r.stiffness - f.stiffness) / f.stiffness);
    errors.force_unchanged = std::max(errors.force_unchanged, std::abs(before.force - f.force) / f.force);
  }
  return errors;
}

// The bounds the tests hold the reuse to, each of a relative error of the patch against the one
// computed anew, for every point displaced by up to the tolerance along the patch's normal and the
// slide tolerance in all (measured largest in brackets):
// - force: ten times the ε the tolerances are designed for (kSurfaceReuseRelativeError), since
//   δ²/(ℓ·d) and slide·P/A give the error only to its order [1.0e-4, a ball on a ball; keeping the
//   depths unchanged: 1e-2]. With the slide tolerance 30 times larger, a tilted box's wedge on the
//   ground is off by 1.03e-3, over it;
// - moment about a fixed point, of F·(the patch's reach): 1e-2 [4.9e-3, a shallow ball's patch of
//   1.4 mm; a box tilted on its edge, whose wedge widens by δ/tilt];
// - stiffness: ε_K (kSurfaceReuseStiffnessError), which the tolerance is capped for [1.1e-2, a
//   tilted box's wedge on a plane].
constexpr double kForceBound = 10 * kSurfaceReuseRelativeError;
constexpr double kMomentBound = 1e-2;
constexpr double kStiffnessBound = kSurfaceReuseStiffnessError;

// Reports the errors and holds them to the bounds above.
void ExpectWithinBounds(const std::string& what, const Errors& e) {
  std::printf(
      "%s: tolerance %.3g m, slide tolerance %.3g m; largest relative errors: force %.2e (unchanged depths %.2e), "
      "moment %.2e, stiffness %.2e\n",
      what.c_str(), e.tolerance, e.slide_tolerance, e.force, e.force_unchanged, e.moment, e.stiffness);
  EXPECT_LT(e.force, kForceBound) << what;
  EXPECT_LT(e.moment, kMomentBound) << what;
  EXPECT_LT(e.stiffness, kStiffnessBound) << what;
}

// A 0.2 m compliant box at 1e8 Pa (a) and a rigid ground box of 2 m × 2 m × 0.2 m (b).
struct BoxAndGround {
  btBoxShape box{btVector3(0.1, 0.1, 0.1)}, ground{btVector3(1, 1, 0.1)};
  btHydroelasticProperties soft = Soft(1e8);
  std::shared_ptr<const ShapeGeometry> a = Geometry(box, &soft), b = Geometry(ground, nullptr);
};

TEST(SurfaceReuseTest, CompliantBoxOnRigidGroundMatchesSurfacesComputedAnew) {
  const BoxAndGround scene;
  const auto &a = scene.a, &b = scene.b;
  for (double depth : {1e-7, 1e-5, 1e-3}) {
    for (double tilt : {0.0, 0.002}) {
      // The box's lowest point `depth` into the ground's top face (z = 0).
      const double drop = 0.1 * (std::cos(tilt) + std::sin(tilt));
      const RigidTransform X_WA = Pose(Vector3(0.03, -0.02, drop - depth), tilt, Vector3(1, 1, 0));
      const RigidTransform X_WB = Pose(Vector3(0, 0, -0.1));
      const Errors e = CompareWithFreshSurfaces(a, X_WA, b, X_WB, 1.0);
      ExpectWithinBounds("box on ground, depth " + std::to_string(depth) + ", tilt " + std::to_string(tilt), e);
    }
  }
}

TEST(SurfaceReuseTest, CompliantBoxOnCompliantBoxMatchesSurfacesComputedAnew) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const btHydroelasticProperties soft = Soft(1e8);
  const auto a = Geometry(box, &soft);
  for (double depth : {1e-6, 1e-4}) {
    const RigidTransform X_WA = Pose(Vector3(0.02, 0.01, 0.2 - depth), 0.001, Vector3(1, 2, 0));
    const RigidTransform X_WB = Pose(Vector3::Zero());
    const Errors e = CompareWithFreshSurfaces(a, X_WA, a, X_WB, 1.0);
    ExpectWithinBounds("box on box, depth " + std::to_string(depth), e);
  }
}

// A ball slid over a compliant box: the patch, carried by the ball, crosses the box's elements, whose
// field has kinks where they meet (√(ε·ℓ·d), which here bounds both tolerances); and a ball on a
// ball, whose normal turns as one rolls on the other.
TEST(SurfaceReuseTest, ABallSlidOverACompliantBoxOrABallMatchesSurfacesComputedAnew) {
  btSphereShape ball(0.05);
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const btHydroelasticProperties soft = Soft(1e7), stiff = Soft(1e8);
  const auto a = Geometry(ball, &soft), b = Geometry(box, &stiff), c = Geometry(ball, &stiff);
  for (double depth : {1e-5, 1e-3}) {
    const RigidTransform X_WA = Pose(Vector3(0.013, -0.021, 0.15 - depth));
    const Errors e = CompareWithFreshSurfaces(a, X_WA, b, Pose(Vector3::Zero()), 1.0);
    ExpectWithinBounds("ball on box, depth " + std::to_string(depth), e);
    const Vector3 on_top = Vector3(0.3, -0.2, 1).normalized();
    const Errors f = CompareWithFreshSurfaces(a, Pose((0.1 - depth) * on_top), c, Pose(Vector3::Zero()), 1.0);
    ExpectWithinBounds("ball on ball, depth " + std::to_string(depth), f);
  }
}

// A sphere's piecewise-linear field has kinks everywhere under its patch: the case the
// tolerance's ℓ (the element size) is for.
TEST(SurfaceReuseTest, CompliantSphereOnRigidPlaneMatchesSurfacesComputedAnew) {
  btSphereShape ball(0.1);
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  const btHydroelasticProperties soft = Soft(1e7);
  const auto a = Geometry(ball, &soft);
  const auto b = Geometry(plane, nullptr);
  for (double depth : {1e-5, 1e-3}) {
    const RigidTransform X_WA = Pose(Vector3(0, 0, 0.1 - depth));
    const Errors e = CompareWithFreshSurfaces(a, X_WA, b, Pose(Vector3::Zero()), 1.0);
    ExpectWithinBounds("ball on plane, depth " + std::to_string(depth), e);
  }
}

// Reduced patches (the plugin's default) keep their reduced points: each moves its depth by its
// points' stiffness-weighted sensitivity, and is compared here with the surface computed and
// reduced anew, to the same bounds.
TEST(SurfaceReuseTest, ReducedPatchesMatchPatchesComputedAndReducedAnew) {
  const BoxAndGround scene;
  // (At this depth the flat face has 31 points; the tilted box touches along an edge, with 6.)
  for (const auto& [tilt, max_points] : {std::pair{0.0, 4}, std::pair{0.0, 16}, std::pair{0.002, 4}}) {
    {
      const double drop = 0.1 * (std::cos(tilt) + std::sin(tilt));
      const RigidTransform X_WA = Pose(Vector3(0.03, -0.02, drop - 1e-5), tilt, Vector3(1, 1, 0));
      const RigidTransform X_WB = Pose(Vector3(0, 0, -0.1));
      const Errors e = CompareWithFreshSurfaces(scene.a, X_WA, scene.b, X_WB, 1.0, 40, max_points);
      ExpectWithinBounds("box on ground reduced to " + std::to_string(max_points) + ", tilt " + std::to_string(tilt),
                         e);
    }
  }
  btSphereShape ball(0.1);
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  const btHydroelasticProperties soft = Soft(1e7);
  const auto a = Geometry(ball, &soft), b = Geometry(plane, nullptr);
  const Errors e = CompareWithFreshSurfaces(a, Pose(Vector3(0, 0, 0.1 - 1e-3)), b, Pose(Vector3::Zero()), 1.0, 40, 16);
  ExpectWithinBounds("ball on plane reduced to 16", e);
}

// A kept surface's sensitivities are worked out at its first reuse (SurfaceReuse::Reuse). A
// second surface kept in place of one already reused must have its own worked out: the same
// points, bit for bit, as an object that kept only the second. Reduced to 16 points and then to 9
// (the second reduced set is smaller, so stale merged sensitivities would be read in place), and
// whole.
TEST(SurfaceReuseTest, ASurfaceKeptInPlaceOfAReusedOneMovesByItsOwnSensitivities) {
  const BoxAndGround scene;
  const RigidTransform X_WB = Pose(Vector3(0, 0, -0.1));
  const RigidTransform X_WA_first =
      Pose(Vector3(0.03, -0.02, 0.1 * (std::cos(0.002) + std::sin(0.002)) - 1e-4), 0.002, Vector3(1, 1, 0));
  const RigidTransform X_WA_second =
      Pose(Vector3(-0.01, 0.02, 0.1 * (std::cos(0.004) + std::sin(0.004)) - 2e-4), 0.004, Vector3(1, -1, 0));
  ContactSurface first_surface, second_surface;
  const std::vector<ContactPoint> first = FreshPoints(*scene.a, X_WA_first, *scene.b, X_WB, &first_surface);
  const std::vector<ContactPoint> second = FreshPoints(*scene.a, X_WA_second, *scene.b, X_WB, &second_surface);
  std::vector<int> first_merged, second_merged;
  const std::vector<ContactPoint> first_reduced = Reduced(first, 16, &first_merged);
  const std::vector<ContactPoint> second_reduced = Reduced(second, 9, &second_merged);
  ASSERT_GT(first_reduced.size(), second_reduced.size());
  for (const bool reduce : {true, false}) {
    SurfaceReuse replaced, fresh;
    replaced.Keep(scene.a, X_WA_first, scene.b, X_WB, first_surface, first, reduce ? &first_reduced : nullptr,
                  reduce ? &first_merged : nullptr);
    ContactSurface unused;
    std::vector<ContactPoint> points;
    const Vector3 down = -0.5 * replaced.tolerance_m() * Vector3::UnitZ();
    ASSERT_TRUE(Reuse(&replaced, scene.a.get(), Pose(down) * X_WA_first, scene.b.get(), X_WB, &unused, &points));
    for (SurfaceReuse* reuse : {&replaced, &fresh})
      reuse->Keep(scene.a, X_WA_second, scene.b, X_WB, second_surface, second, reduce ? &second_reduced : nullptr,
                  reduce ? &second_merged : nullptr);
    const RigidTransform moved = Pose(-0.5 * fresh.tolerance_m() * Vector3::UnitZ()) * X_WA_second;
    std::vector<ContactPoint> from_replaced, from_fresh;
    ASSERT_TRUE(Reuse(&replaced, scene.a.get(), moved, scene.b.get(), X_WB, &unused, &from_replaced));
    ASSERT_TRUE(Reuse(&fresh, scene.a.get(), moved, scene.b.get(), X_WB, &unused, &from_fresh));
    ASSERT_EQ(from_replaced.size(), reduce ? second_reduced.size() : second.size());
    ASSERT_EQ(from_replaced.size(), from_fresh.size());
    for (size_t i = 0; i < from_fresh.size(); ++i)
      EXPECT_EQ(from_replaced[i].phi0_m, from_fresh[i].phi0_m) << (reduce ? "reduced" : "whole") << ", point " << i;
    // The move did change the depths (the sensitivities were used, not only copied).
    EXPECT_NE(from_fresh[0].phi0_m, (reduce ? second_reduced : second)[0].phi0_m);
  }
}

// A box tilted on the ground, its surface kept twice: whole, and reduced to 16 points.
struct TiltedBoxKeptWholeAndReduced {
  TiltedBoxKeptWholeAndReduced() {
    all = FreshPoints(*scene.a, X_WA, *scene.b, X_WB, &surface);
    reduced = Reduced(all, 16, &merged_into);
    whole.Keep(scene.a, X_WA, scene.b, X_WB, surface, all);
    parts.Keep(scene.a, X_WA, scene.b, X_WB, surface, all, &reduced, &merged_into);
  }
  const BoxAndGround scene;
  const RigidTransform X_WA =
      Pose(Vector3(0.03, -0.02, 0.1 * (std::cos(0.002) + std::sin(0.002)) - 1e-4), 0.002, Vector3(1, 1, 0));
  const RigidTransform X_WB = Pose(Vector3(0, 0, -0.1));
  ContactSurface surface;
  std::vector<ContactPoint> all, reduced;
  std::vector<int> merged_into;
  SurfaceReuse whole, parts;
};

// Under a translation every point's depth moves by s·t, so while all points press, the reduced
// points' total force moves exactly as the full set's: Σ_j K_j·s̄_j = Σ_i k_i·s_i.
TEST(SurfaceReuseTest, ReducedPatchesMoveTheirForceAsTheFullSetUnderTranslation) {
  TiltedBoxKeptWholeAndReduced kept;
  const BoxAndGround& scene = kept.scene;
  const std::vector<ContactPoint>& all = kept.all;
  const RigidTransform &X_WA = kept.X_WA, &X_WB = kept.X_WB;
  SurfaceReuse &whole = kept.whole, &parts = kept.parts;
  ASSERT_TRUE(whole.has_surface() && parts.has_surface());
  const Vector3 t = 0.8 * whole.tolerance_m() * Vector3(0.3, -0.2, -1).normalized();
  std::vector<ContactPoint> moved_whole, moved_parts;
  ContactSurface unused;
  ASSERT_TRUE(Reuse(&whole, scene.a.get(), Pose(t) * X_WA, scene.b.get(), X_WB, &unused, &moved_whole));
  ASSERT_TRUE(Reuse(&parts, scene.a.get(), Pose(t) * X_WA, scene.b.get(), X_WB, &unused, &moved_parts));
  for (const ContactPoint& point : moved_whole) ASSERT_LT(point.phi0_m, 0);  // all press
  const Vector3 c = X_WA.translation();
  const double f_whole = Summarize(moved_whole, c).force, f_parts = Summarize(moved_parts, c).force;
  EXPECT_NEAR(f_parts, f_whole, 1e-9 * f_whole);
  EXPECT_GT(std::abs(f_whole - Summarize(all, c).force), 1e-3 * f_whole);  // the move changed the force
}

// A reduced patch reused for a speculative patch also gives every kept point, moved as a whole
// patch's are, and the merged point each went into (the plugin judges the merged points by them at
// the present poses): point for point the whole keep's reuse, to round-off, and Keep's merge map.
// A whole keep, or no request, gives none.
TEST(SurfaceReuseTest, AReducedPatchReusedGivesItsPointsWithTheMergedOnesOnRequest) {
  TiltedBoxKeptWholeAndReduced kept;
  const BoxAndGround& scene = kept.scene;
  const std::vector<ContactPoint>&all = kept.all, &reduced = kept.reduced;
  const RigidTransform &X_WA = kept.X_WA, &X_WB = kept.X_WB;
  SurfaceReuse &whole = kept.whole, &parts = kept.parts;
  ASSERT_GT(all.size(), reduced.size());
  const RigidTransform moved = Pose(0.6 * whole.tolerance_m() * Vector3(0.3, -0.2, -1).normalized()) * X_WA;
  std::vector<ContactPoint> moved_whole, moved_parts, moved_from(3);
  std::vector<int> moved_into(3, 7);  // left from an earlier call
  RigidTransform carry;
  ASSERT_EQ(whole.Reuse(scene.a.get(), moved, scene.b.get(), X_WB, &moved_whole, &carry, &moved_from, &moved_into),
            SurfaceReuseOutcome::kReused);
  EXPECT_TRUE(moved_from.empty() && moved_into.empty());  // not merged: nothing more to give
  ASSERT_EQ(parts.Reuse(scene.a.get(), moved, scene.b.get(), X_WB, &moved_parts, &carry), SurfaceReuseOutcome::kReused);
  EXPECT_EQ(moved_parts.size(), kept.reduced.size());  // no request: the merged points alone
  ASSERT_EQ(parts.Reuse(scene.a.get(), moved, scene.b.get(), X_WB, &moved_parts, &carry, &moved_from, &moved_into),
            SurfaceReuseOutcome::kReused);
  ASSERT_EQ(moved_parts.size(), reduced.size());
  ASSERT_EQ(moved_from.size(), moved_whole.size());
  EXPECT_EQ(moved_into, kept.merged_into);
  double largest_move = 0;
  for (size_t i = 0; i < moved_whole.size(); ++i) {
    EXPECT_NEAR(moved_from[i].phi0_m, moved_whole[i].phi0_m, 1e-15) << i;
    EXPECT_NEAR((moved_from[i].p_WC - moved_whole[i].p_WC).norm(), 0, 1e-15) << i;
    EXPECT_EQ(moved_from[i].stiffness_N_per_m, moved_whole[i].stiffness_N_per_m) << i;
    largest_move = std::max(largest_move, std::abs(moved_from[i].phi0_m - all[i].phi0_m));
  }
  EXPECT_GT(largest_move, 0.1 * whole.tolerance_m());  // the points were moved, not copied
}

// The first-order update is what makes reuse right: keeping the depths as they were is off by the
// relative motion itself, a large part of a stiff patch's force.
TEST(SurfaceReuseTest, KeepingTheDepthsUnchangedWouldBeFarWorse) {
  const BoxAndGround scene;
  const auto &a = scene.a, &b = scene.b;
  const Errors e = CompareWithFreshSurfaces(a, Pose(Vector3(0, 0, 0.1 - 1e-5)), b, Pose(Vector3(0, 0, -0.1)), 1.0);
  EXPECT_GT(e.force_unchanged, 30 * e.force);
  EXPECT_GT(e.force_unchanged, kForceBound);
}

// The stiffness cap ε_K·d of the tolerance holds while δt resolves the patch (scale 1); in the
// near-rigid regime (scale s < 1) it widens to ½·(1 − s)·d, and where the kinks' bound √(ε·ℓ·d)
// is below that, only the kinks' bound is left. A box 10 µm into the ground (kinks about 0.7·d)
// and 1 mm into it (about 0.07·d).
TEST(SurfaceReuseTest, ANearRigidPatchIsNotHeldToTheStiffnessCap) {
  const BoxAndGround scene;
  const auto &a = scene.a, &b = scene.b;
  for (const double depth_m : {1e-5, 1e-3}) {
    const RigidTransform X_WA = Pose(Vector3(0, 0, 0.1 - depth_m)), X_WB = Pose(Vector3(0, 0, -0.1));
    ContactSurface surface;
    const std::vector<ContactPoint> points = FreshPoints(*a, X_WA, *b, X_WB, &surface);
    double stiffness = 0, force = 0;
    for (const ContactPoint& point : points) {
      stiffness += point.stiffness_N_per_m;
      force += point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
    }
    const double d = force / stiffness;
    auto tolerance = [&](double scale) {
      SurfaceReuse reuse;
      reuse.Keep(a, X_WA, b, X_WB, surface, points, nullptr, nullptr, 0, scale);
      EXPECT_TRUE(reuse.has_surface()) << scale;
      return reuse.tolerance_m();
    };
    std::printf("depth %g m: tolerance %.3g·d at s = 1, %.3g·d at s = 1e-6\n", depth_m, tolerance(1.0) / d,
                tolerance(1e-6) / d);
    EXPECT_NEAR(tolerance(1.0), kSurfaceReuseStiffnessError * d, 1e-12 * d) << depth_m;
    EXPECT_EQ(tolerance(0.99), tolerance(1.0)) << depth_m;  // ½·(1 − s) below ε_K
    // A scale that is not one (NaN, 0, above 1) keeps the cap.
    for (double scale : {double{NAN}, 0.0, 2.0}) EXPECT_EQ(tolerance(scale), tolerance(1.0)) << scale;
    if (depth_m == 1e-5) {
      EXPECT_NEAR(tolerance(1 / 1.1), 0.5 * (1 - 1 / 1.1) * d, 1e-12 * d);
      EXPECT_NEAR(tolerance(0.2), 0.4 * d, 1e-12 * d);
      EXPECT_NEAR(tolerance(1e-6), 0.5 * d, 1e-6 * d);  // the kinks allow more
    } else {
      // The kinks' bound, whatever s: above the cap, below ½·(1 − s)·d.
      const double kinks = tolerance(1e-6);
      EXPECT_EQ(tolerance(0.2), kinks);
      EXPECT_GT(kinks, 2 * kSurfaceReuseStiffnessError * d);
      EXPECT_LT(kinks, 0.3 * d);
    }
  }
}

TEST(SurfaceReuseTest, MovedBeyondTheToleranceTheSurfaceIsComputedAnew) {
  const BoxAndGround scene;
  const auto &a = scene.a, &b = scene.b;
  const RigidTransform X_WA = Pose(Vector3(0, 0, 0.1 - 1e-5)), X_WB = Pose(Vector3(0, 0, -0.1));
  ContactSurface surface;
  std::vector<ContactPoint> points = FreshPoints(*a, X_WA, *b, X_WB, &surface);
  SurfaceReuse reuse;
  reuse.Keep(a, X_WA, b, X_WB, surface, points);
  const double tolerance = reuse.tolerance_m();
  ASSERT_GT(tolerance, 0);
  EXPECT_TRUE(
      Reuse(&reuse, a.get(), Pose(Vector3(0, 0, 0.1 - 1e-5 - 0.9 * tolerance)), b.get(), X_WB, &surface, &points));
  EXPECT_FALSE(
      Reuse(&reuse, a.get(), Pose(Vector3(0, 0, 0.1 - 1e-5 - 1.1 * tolerance)), b.get(), X_WB, &surface, &points));
  // Slid along the face, it may go further: the slide tolerance, here the rim's bound ε·a/2.
  const double slide = reuse.slide_tolerance_m();
  EXPECT_GT(slide, 5 * tolerance);
  for (double fraction : {0.9, 1.1})
    EXPECT_EQ(Reuse(&reuse, a.get(), Pose(Vector3(fraction * slide, 0, 0.1 - 1e-5)), b.get(), X_WB, &surface, &points),
              fraction < 1)
        << fraction;
  // Turned about the vertical through the patch's centre (the box's axis), its farthest point moves
  // by θ·reach along the face; tilted about x, by up to θ·reach across it. The bound over a sphere
  // holding the points admits 0.9 of each tolerance, not 1.1.
  double reach = 0;
  for (const ContactPoint& point : points) reach = std::max(reach, Vector3(point.p_WC.x(), point.p_WC.y(), 0).norm());
  for (double fraction : {0.9, 1.1}) {
    EXPECT_EQ(Reuse(&reuse, a.get(), Pose(Vector3(0, 0, 0.1 - 1e-5), fraction * slide / reach, Vector3::UnitZ()),
                    b.get(), X_WB, &surface, &points),
              fraction < 1)
        << fraction;
    EXPECT_EQ(Reuse(&reuse, a.get(), Pose(Vector3(0, 0, 0.1 - 1e-5), fraction * tolerance / reach, Vector3::UnitX()),
                    b.get(), X_WB, &surface, &points),
              fraction < 1)
        << fraction;
  }
  // A NaN pose is never within the tolerance.
  EXPECT_FALSE(Reuse(&reuse, a.get(), Pose(Vector3(NAN, 0, 0.1)), b.get(), X_WB, &surface, &points));
  // Other geometries (a shape retagged, say) never reuse.
  const auto other = Geometry(scene.box, &scene.soft);
  EXPECT_FALSE(Reuse(&reuse, other.get(), X_WA, b.get(), X_WB, &surface, &points));
  reuse.Clear();
  EXPECT_FALSE(Reuse(&reuse, a.get(), X_WA, b.get(), X_WB, &surface, &points));
}

// A half-space is unchanged by slides along its face and turns about its normal: a body that slides
// and spins on one keeps its surface, however far it goes, and the surface carried with it matches
// the one computed there — while it neither sinks, rises nor tilts by more than the tolerance.
// `body_is_a`: which of the two geometries is the body (the other is the half-space); the motion
// is applied to the body, about its patch's centre.
void CheckSlidAndTurnedOnAHalfSpace(const std::shared_ptr<const ShapeGeometry>& body, const RigidTransform& X_WBody,
                                    const std::shared_ptr<const ShapeGeometry>& half_space, bool body_is_a,
                                    const char* what) {
  const RigidTransform X_WH = Pose(Vector3::Zero());
  const auto& a = body_is_a ? body : half_space;
  const auto& b = body_is_a ? half_space : body;
  auto pose_of_a = [&](const RigidTransform& X_WBody_now) { return body_is_a ? X_WBody_now : X_WH; };
  auto pose_of_b = [&](const RigidTransform& X_WBody_now) { return body_is_a ? X_WH : X_WBody_now; };
  ContactSurface surface;
  const std::vector<ContactPoint> kept = FreshPoints(*a, pose_of_a(X_WBody), *b, pose_of_b(X_WBody), &surface);
  SurfaceReuse reuse;
  reuse.Keep(a, pose_of_a(X_WBody), b, pose_of_b(X_WBody), surface, kept);
  ASSERT_TRUE(reuse.has_surface());
  const double tolerance = reuse.tolerance_m();
  const Vector3 c(X_WBody.translation().x(), X_WBody.translation().y(), 0);  // under the body
  double reach = 0;
  for (const ContactPoint& point : kept) reach = std::max(reach, (point.p_WC - c).norm());
  Errors errors;
  for (const double turn : {0.3, 1.0, 2.5}) {
    for (const double sink : {-0.8, 0.0, 0.8}) {
      // Slid by 5 cm and turned about the vertical through c, sunk by a fraction of the tolerance.
      const Vector3 slide(0.05 * std::cos(turn), -0.05 * std::sin(turn), -sink * tolerance);
      const RigidTransform motion = Pose(c + slide, turn, Vector3::UnitZ()) * Pose(-c);
      const RigidTransform X_WBody_moved = motion * X_WBody;
      ContactSurface reused_surface, fresh_surface;
      std::vector<ContactPoint> reused;
      ASSERT_TRUE(
          Reuse(&reuse, a.get(), pose_of_a(X_WBody_moved), b.get(), pose_of_b(X_WBody_moved), &reused_surface, &reused))
          << what << ", turn " << turn << ", sink " << sink;
      EXPECT_EQ(reused.size(), kept.size());
      const std::vector<ContactPoint> fresh =
          FreshPoints(*a, pose_of_a(X_WBody_moved), *b, pose_of_b(X_WBody_moved), &fresh_surface);
      const Vector3 c_moved = motion * c;
      const PatchSummary r = Summarize(reused, c_moved), f = Summarize(fresh, c_moved);
      errors.force = std::max(errors.force, std::abs(r.force - f.force) / f.force);
      errors.moment = std::max(errors.moment, (r.moment - f.moment).norm() / (f.force * reach));
      errors.stiffness = std::max(errors.stiffness, std::abs(r.stiffness - f.stiffness) / f.stiffness);
    }
  }
  errors.tolerance = tolerance;
  errors.slide_tolerance = reuse.slide_tolerance_m();
  ExpectWithinBounds(what, errors);
  // Sunk, raised or tilted further than the tolerance, it is computed anew.
  std::vector<ContactPoint> unused_points;
  ContactSurface unused_surface;
  const RigidTransform slid = Pose(Vector3(0.05, 0, 0)) * X_WBody;
  for (const double sink : {-1.2, 1.2})
    EXPECT_FALSE(Reuse(&reuse, a.get(), pose_of_a(Pose(Vector3(0, 0, -sink * tolerance)) * slid), b.get(),
                       pose_of_b(Pose(Vector3(0, 0, -sink * tolerance)) * slid), &unused_surface, &unused_points))
        << what << ", sink " << sink;
  const RigidTransform tilted =
      Pose(slid.translation(), 1.2 * tolerance / reach, Vector3::UnitX()) * Pose(-slid.translation()) * slid;
  EXPECT_FALSE(Reuse(&reuse, a.get(), pose_of_a(tilted), b.get(), pose_of_b(tilted), &unused_surface, &unused_points))
      << what << ", tilted";
}

TEST(SurfaceReuseTest, ABodySlidAndTurnedOnAHalfSpaceMatchesSurfacesComputedAnew) {
  // 000 §V-A's coin, rigid, on a 1 GPa slab 1 cm thick, 0.1 µm deep (the body first).
  const double R = 0.01213, half_thickness = 0.000875;
  btCylinderShapeZ coin(btVector3(R, R, half_thickness));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btHydroelasticProperties rigid;
  rigid.m_kind = btHydroelasticProperties::RIGID;
  rigid.m_resolutionHint = R / 8;
  btHydroelasticProperties slab = Soft(1e9);
  slab.m_slabThickness = 0.01;
  CheckSlidAndTurnedOnAHalfSpace(Geometry(coin, &rigid), Pose(Vector3(0.01, 0.02, half_thickness - 1e-7)),
                                 Geometry(plane, &slab), true, "rigid coin on a compliant half-space");
  // A compliant box at 1e8 Pa, slightly tilted, 10 µm into a rigid plane (the half-space first).
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const btHydroelasticProperties soft = Soft(1e8);
  const double tilt = 1e-4;
  CheckSlidAndTurnedOnAHalfSpace(
      Geometry(box, &soft),
      Pose(Vector3(-0.02, 0.03, 0.1 * (std::cos(tilt) + std::sin(tilt)) - 1e-5), tilt, Vector3(1, 1, 0)),
      Geometry(plane, nullptr), false, "compliant box on a rigid plane");
}

// A reduced patch slid along a half-space comes back whole, to be reduced anew: its reduced points,
// fixed on the body, no longer stand for the patch's motion (see plugin/surface_reuse.h). Barely
// moved, it stays reduced.
TEST(SurfaceReuseTest, AReducedPatchSlidOnAHalfSpaceIsGivenBackWhole) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  const btHydroelasticProperties soft = Soft(1e8);
  const auto a = Geometry(box, &soft), b = Geometry(plane, nullptr);
  const RigidTransform X_WA = Pose(Vector3(0, 0, 0.1 - 1e-5)), X_WB = Pose(Vector3::Zero());
  ContactSurface surface;
  const std::vector<ContactPoint> all = FreshPoints(*a, X_WA, *b, X_WB, &surface);
  std::vector<int> merged_into;
  const std::vector<ContactPoint> reduced = Reduced(all, 16, &merged_into);
  ASSERT_LT(reduced.size(), all.size());
  SurfaceReuse reuse;
  reuse.Keep(a, X_WA, b, X_WB, surface, all, &reduced, &merged_into);
  std::vector<ContactPoint> points;
  RigidTransform carry;
  const double tolerance = reuse.tolerance_m();
  EXPECT_EQ(reuse.Reuse(a.get(), Pose(Vector3(0.5 * tolerance, 0, 0)) * X_WA, b.get(), X_WB, &points, &carry),
            SurfaceReuseOutcome::kReused);
  EXPECT_EQ(points.size(), reduced.size());
  EXPECT_EQ(reuse.Reuse(a.get(), Pose(Vector3(0.05, 0, 0)) * X_WA, b.get(), X_WB, &points, &carry),
            SurfaceReuseOutcome::kReusedWhole);
  // Whole: all its points, or their fine reduction where they are more than twice its budget
  // (kFineReduction times 16; the box's face on its centroid fans has 320 points).
  const size_t fine_budget = kFineReduction * 16;
  if (all.size() > 2 * fine_budget) {
    EXPECT_GT(points.size(), reduced.size());
    EXPECT_LE(points.size(), fine_budget);
  } else {
    EXPECT_EQ(points.size(), all.size());
  }
  EXPECT_NEAR(carry.translation().x(), 0.05, 1e-12);
}

// A 1 GPa compliant coin (R = 12 mm, hint R/8) pressed into a rigid plane, its surface and points,
// reduced to `reduced_to` points and kept; then slid 1 cm and turned 0.3 rad about the vertical,
// where its kept surface is given back whole (ASSERTed by the caller) into `given`.
struct SlidCoin {
  std::vector<ContactPoint> all, reduced, given;
  RigidTransform moved;
  SurfaceReuseOutcome outcome;
};
SlidCoin KeepAndSlideACoin(int reduced_to, int budget) {
  btCylinderShapeZ coin(btVector3(0.012, 0.012, 0.001));
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  btHydroelasticProperties soft = Soft(1e9);
  soft.m_resolutionHint = 0.012 / 8;
  const auto a = Geometry(coin, &soft), b = Geometry(plane, nullptr);
  // 1 µm in: Bullet's float build rounds the coin's half-height (with its margin) by more than a
  // nanometre.
  const RigidTransform X_WA = Pose(Vector3(0, 0, 0.001 - 1e-6)), X_WB = Pose(Vector3::Zero());
  ContactSurface surface;
  SlidCoin result;
  result.all = FreshPoints(*a, X_WA, *b, X_WB, &surface);
  std::vector<int> merged_into;
  result.reduced = Reduced(result.all, reduced_to, &merged_into);
  SurfaceReuse reuse;
  reuse.Keep(a, X_WA, b, X_WB, surface, result.all, &result.reduced, &merged_into, budget);
  result.moved = Pose(Vector3(0.01, 0, 0), 0.3, Vector3::UnitZ());
  RigidTransform carry;
  result.outcome = reuse.Reuse(a.get(), result.moved * X_WA, b.get(), X_WB, &result.given, &carry);
  return result;
}

// A reduced patch of many points slid and turned on a half-space comes back as its fine set
// (kFineReduction times the budget's points, made once at Keep), whose elastic force, its moment
// and the stiffness are those of all the points carried there (exactly: the depths along the
// half-space do not change), and which are far fewer than all the points.
TEST(SurfaceReuseTest, AReducedPatchOfManyPointsSlidOnAHalfSpaceComesBackAsItsFineSet) {
  const SlidCoin coin = KeepAndSlideACoin(16, 16);
  ASSERT_GT(coin.all.size(), 2 * kFineReduction * coin.reduced.size());
  ASSERT_EQ(coin.outcome, SurfaceReuseOutcome::kReusedWhole);
  const std::vector<ContactPoint>& fine = coin.given;
  EXPECT_LE(fine.size(), kFineReduction * coin.reduced.size());
  EXPECT_GT(fine.size(), coin.reduced.size());
  std::vector<ContactPoint> all_moved = coin.all;
  for (ContactPoint& point : all_moved) {
    point.p_WC = coin.moved * point.p_WC;
    point.nhat_BA_W = coin.moved.linear() * point.nhat_BA_W;
  }
  const Vector3 c = coin.moved * Vector3(0.003, -0.002, 0);
  const PatchSummary want = Summarize(all_moved, c), got = Summarize(fine, c);
  EXPECT_NEAR(got.force, want.force, 1e-9 * want.force);
  EXPECT_NEAR(got.stiffness, want.stiffness, 1e-9 * want.stiffness);
  EXPECT_LT((got.moment - want.moment).norm(), 1e-9 * want.force * 0.012);
}

// The fine set is made for kFineReduction times the budget the reduced points were made for, not
// times how many points the reduction came out with (a coin kept while its side wall touched came
// out with 49 points of 64, and its fine set of 153 aliased with its slip: ε 10 % low).
TEST(SurfaceReuseTest, TheFineSetIsMadeForTheBudgetNotForThePointsTheReductionGave) {
  // Fewer points (8) than the budget (32), as a reduction with empty cells gives.
  const int budget = 32;
  const SlidCoin coin = KeepAndSlideACoin(8, budget);
  ASSERT_GT(coin.all.size(), 2u * kFineReduction * budget);
  ASSERT_EQ(coin.outcome, SurfaceReuseOutcome::kReusedWhole);
  EXPECT_GT(coin.given.size(), kFineReduction * coin.reduced.size());
  EXPECT_LE(coin.given.size(), static_cast<size_t>(kFineReduction * budget));
}

// Bodies carried together (a box held in a gripper, two stacked boxes falling) keep their
// relative pose: the surface is reused wherever they are, and gives the patch computed there
// (the clipping at the new poses may keep or drop a few more slivers of no area, so the points are
// compared as a whole).
TEST(SurfaceReuseTest, ASurfaceCarriedByBothBodiesEqualsTheOneComputedThere) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const btHydroelasticProperties soft = Soft(1e6);
  const auto a = Geometry(box, &soft);
  // Off the faces' exact alignment, where clipping coplanar faces keeps or drops slivers by the
  // rounding of the poses.
  const RigidTransform X_WA = Pose(Vector3(0.0137, 0.0071, 0.2 - 1e-4), 3e-4, Vector3(1, 2, 0));
  const RigidTransform X_WB = Pose(Vector3::Zero());
  ContactSurface surface;
  const std::vector<ContactPoint> kept = FreshPoints(*a, X_WA, *a, X_WB, &surface);
  SurfaceReuse reuse;
  reuse.Keep(a, X_WA, a, X_WB, surface, kept);
  const RigidTransform carry = Pose(Vector3(3, -2, 5), 1.2, Vector3(1, 2, 3));
  ContactSurface reused_surface, fresh_surface;
  std::vector<ContactPoint> reused;
  ASSERT_TRUE(Reuse(&reuse, a.get(), carry * X_WA, a.get(), carry * X_WB, &reused_surface, &reused));
  const std::vector<ContactPoint> fresh = FreshPoints(*a, carry * X_WA, *a, carry * X_WB, &fresh_surface);
  const Vector3 c = carry * X_WA.translation();
  const PatchSummary r = Summarize(reused, c), f = Summarize(fresh, c);
  EXPECT_NEAR(r.force, f.force, 1e-9 * f.force);
  EXPECT_LT((r.moment - f.moment).norm(), 1e-9 * f.force * 0.1);
  EXPECT_NEAR(r.stiffness, f.stiffness, 1e-9 * f.stiffness);
  EXPECT_LT((reused_surface.CalcElasticForceOnA() - fresh_surface.CalcElasticForceOnA()).norm(),
            1e-9 * fresh_surface.CalcElasticForceOnA().norm());
}

// In a world: a 2 × 2 × 2 block of compliant boxes at 60 Hz lands and rests the same with and
// without reuse (to 1 µm), and once at rest every patch is reused.
TEST(SurfaceReuseTest, ABlockAtRestReusesItsSurfacesAndRestsAsWithout) {
  std::vector<btVector3> rest[2];
  long long reused[2] = {0, 0}, computed[2] = {0, 0};
  for (int on = 0; on < 2; ++on) {
    btBoxShape box(btVector3(0.1, 0.1, 0.1)), ground(btVector3(2, 2, 0.1));
    test::ScopedHydroelastic tag(&box, test::Compliant(1e8));
    test::TestWorld world;
    world.state().setSurfaceReuse(on != 0);
    world.AddBody(&ground, 0, btVector3(0, 0, -0.1));
    std::vector<btRigidBody*> boxes;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k)
          boxes.push_back(world.AddBody(&box, 1, btVector3(0.21 * i, 0.21 * j, 0.3 + 0.21 * k)));
    world.Step(120, 1.0 / 60);  // lands and settles
    world.state().resetStats();
    world.Step(60, 1.0 / 60);
    reused[on] = world.state().getStats().m_surfacesReused;
    computed[on] = world.state().getStats().m_surfacesComputed;
    for (btRigidBody* body : boxes) {
      rest[on].push_back(body->getWorldTransform().getOrigin());
      EXPECT_LT(body->getLinearVelocity().length(), 1e-4);
    }
  }
  EXPECT_EQ(reused[0], 0);
  // Neighbours 1 cm apart side by side are apart by more than a step can close: no surface at all
  // (btHydroelasticCollisionAlgorithm's `apart` test), so without reuse only the 8 patches are
  // computed, and with it none.
  EXPECT_EQ(computed[0], 60 * 8);
  EXPECT_EQ(computed[1], 0);
  // 8 patches a step (4 on the ground, 4 box on box), every one reused at rest.
  EXPECT_EQ(reused[1], 60 * 8);
  std::printf("surfaces computed in 60 steps at rest: %lld without reuse, %lld with (%lld reused)\n", computed[0],
              computed[1], reused[1]);
  for (size_t i = 0; i < rest[0].size(); ++i) EXPECT_LT((rest[0][i] - rest[1][i]).length(), 1e-6) << "box " << i;
}

// Two boxes falling one above the other, 1 cm apart: they could close that gap within a step if
// the lower one were stopped, so the pair's patch is taken with the upper box moved against the
// lower one (speculative contact, btHydroelasticCollisionAlgorithm::processCollision). Their
// relative pose does not change in the fall, so that patch is computed once and then reused,
// although the pair's requests at its present poses and ahead, apart, come out empty every step.
// (They cleared the kept patch, and BasicDemo's falling block computed 95 such patches a step.)
TEST(SurfaceReuseTest, BoxesFallingTogetherReuseTheirSpeculativePatch) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e8));
  test::TestWorld world;
  btRigidBody* lower = world.AddBody(&box, 1, btVector3(0, 0, 10));
  btRigidBody* upper = world.AddBody(&box, 1, btVector3(0, 0, 10.21));
  world.Step(2, 1.0 / 60);  // the first step has no speed to close the gap with
  world.state().resetStats();
  constexpr int kSteps = 30;
  world.Step(kSteps, 1.0 / 60);
  const btHydroelasticStats stats = world.state().getStats();
  EXPECT_EQ(stats.m_surfacesReused, kSteps);
  EXPECT_EQ(stats.m_surfacesComputed, 2 * kSteps);  // at the present poses and ahead: empty
  EXPECT_GT(stats.m_points, 0);                     // the speculative points, every step
  // The speculative points push nothing: the boxes fall as one, neither turning nor sliding. (The
  // patch's side-wall slivers at the rim, their normals level, kept the overlap of the moved poses,
  // and set both boxes spinning at 3e-5 rad/s and sliding apart by 0.4 µm in these steps.)
  for (btRigidBody* body : {lower, upper}) {
    EXPECT_EQ(body->getAngularVelocity().length(), 0);
    EXPECT_EQ(body->getWorldTransform().getOrigin().x(), 0);
    EXPECT_NEAR(body->getLinearVelocity().z(), -9.81 * (kSteps + 2) / 60.0, test::BulletAbsolute(1e-12, 5.3));
  }
  EXPECT_NEAR(upper->getWorldTransform().getOrigin().z() - lower->getWorldTransform().getOrigin().z(), 0.21,
              test::BulletAbsolute(1e-12, 10));  // rounded at 10 m in float
}

// A reused surface keeps the points it was reduced to; a new point budget (whole patches, then the
// default) takes effect at the next step all the same, for a pair at rest that reuses every step.
TEST(SurfaceReuseTest, ANewPointBudgetTakesEffectAtTheNextStepWhileReusing) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1)), ground(btVector3(2, 2, 0.1));
  test::ScopedHydroelastic tag(&box, test::Compliant(1e8, 0.02));  // a fine face: 100s of points
  test::TestWorld world;
  world.AddBody(&ground, 0, btVector3(0.3, 0.1, -0.1));  // off the ground's diagonal (ManifoldEmitterTest)
  world.AddBody(&box, 1, btVector3(0, 0, 0.1));
  auto points_in_one_step = [&] {
    world.state().resetStats();
    world.Step(1, 1.0 / 60);
    EXPECT_EQ(world.state().getStats().m_surfacesReused, 1);  // the one patch, reused
    return world.state().getStats().m_points;
  };
  for (int budget : {0, 16, 4, 0}) {
    world.SetMaxPatchPoints(budget);
    world.Step(30, 1.0 / 60);  // settles, reusing from the second step on
    const long long points = points_in_one_step();
    if (budget == 0)
      EXPECT_GT(points, 16);
    else
      EXPECT_LE(points, budget);
  }
}

}  // namespace
}  // namespace bullet
}  // namespace hydro
