// Bullet's usual 1/60 s step with stiff compliant boxes (E from 1e6 to 1e10 Pa), on a rigid floor —
// where point-by-point patch contact exploded (boxes at 9,000 m/s through the floor at 1e8 Pa).
// Each scene checks what a Bullet user expects of it: no body faster than its free fall, no body
// deeper in the floor than a few millimetres, everything at rest within 5 s, and stacks that stand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "test_world.h"

namespace hydro {
namespace {

using test::Compliant;
using test::ScopedHydroelastic;
using test::TestWorld;

constexpr double kGravity = 9.81;
constexpr double kStep = 1.0 / 60;

struct SceneRecord {
  double max_speed{0};   // over every body and step
  double deepest{0};     // lowest point of any body below the floor's top (m, ≥ 0)
  double rest_time{-1};  // when every body last fell below 1 cm/s for good (s), -1: never
  double final_speed{0};
};

// Steps `world` for `seconds`, recording speeds and the depth of each box's lowest corner.
SceneRecord RunScene(TestWorld* world, const std::vector<btRigidBody*>& bodies, double seconds) {
  SceneRecord record;
  const int steps = static_cast<int>(std::lround(seconds / kStep));
  for (int s = 0; s < steps; ++s) {
    world->Step(1, kStep);
    double fastest = 0;
    for (const btRigidBody* body : bodies) {
      fastest = std::max<double>(fastest, body->getLinearVelocity().length());
      btVector3 lo, hi;
      body->getAabb(lo, hi);
      // Bullet pads AABBs by the contact-breaking threshold; a box's corners give the true lowest point.
      const btBoxShape* box = static_cast<const btBoxShape*>(body->getCollisionShape());
      const btVector3 half = box->getHalfExtentsWithMargin();
      double lowest = 1e9;
      for (int c = 0; c < 8; ++c) {
        const btVector3 corner((c & 1 ? 1 : -1) * half.x(), (c & 2 ? 1 : -1) * half.y(), (c & 4 ? 1 : -1) * half.z());
        lowest = std::min<double>(lowest, (body->getWorldTransform() * corner).z());
      }
      record.deepest = std::max(record.deepest, -lowest);
    }
    record.max_speed = std::max(record.max_speed, fastest);
    if (fastest < 0.01) {
      if (record.rest_time < 0) record.rest_time = (s + 1) * kStep;
    } else {
      record.rest_time = -1;
    }
    record.final_speed = fastest;
  }
  return record;
}

// A block of n × n × n boxes of 0.2 m and 1 kg, 1 cm apart, its base `height` above the floor (as
// Bullet's BasicDemo, smaller), every box compliant with modulus E.
// `configure`, if given, changes the world's solver settings after it is made, as programs do.
SceneRecord DropBlock(int n, double height, double modulus, void (*configure)(btContactSolverInfo*) = nullptr) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(modulus));
  TestWorld world;
  if (configure) configure(&world.world()->getSolverInfo());
  world.AddGroundBox();
  const std::vector<btRigidBody*> bodies = world.AddBoxBlock(&box, n, height + 0.1);
  return RunScene(&world, bodies, 5.0);
}

TEST(StiffScenesTest, ABoxDroppedAt60HzLandsWithoutReboundAtAnyStiffness) {
  for (double modulus : {1e6, 1e8, 1e10}) {
    const SceneRecord r = DropBlock(1, 1.0, modulus);
    const double free_fall = std::sqrt(2 * kGravity * 1.0);
    // Tolerances: one step of gravity above the free-fall speed; 1 mm beyond the static depth
    // (≤ 0.05 mm here) plus one step's fall at landing for the softest, whose 1 kg on 0.04 m² at
    // 1e6 Pa with a 0.1 m field depth settles 0.25 mm deep; at rest within 5 s.
    EXPECT_LE(r.max_speed, free_fall + kGravity * kStep) << modulus;
    EXPECT_LE(r.deepest, 1e-3 + (modulus < 1e7 ? 0.02 : 0.0)) << modulus;
    EXPECT_GE(r.rest_time, 0) << modulus;
    EXPECT_LT(r.final_speed, 0.01) << modulus;
  }
}

// A 0.2 m box dropped 0.9 m flat onto a fixed box of its size offset by (5, 3) cm, its centre of
// mass well inside the support, at 60 Hz, square to it or turned by 0.3 rad: it lands and stays,
// as in stock Bullet. It slid off at every stiffness:
// - the first patch was taken 5 cm past first contact, where the two fields' equal-pressure
//   surface leans up to 25° at the support's edges under the box; those normals pushed it
//   sideways at 0.3 m/s. (And the gap was measured along the line between the centres only,
//   which underestimates it here: the patch ahead came out empty and the whole step's motion was
//   taken instead, 5 cm deep as well.)
// - turned, at 1e8 and 1e10 Pa, once touching: the corners where its side walls cross the
//   support's make slivers with level normals that kept the depth they had a step ahead.
// Tolerances: on it after 3 s (centre 0.1 m up within 1 mm, slower than 1 mm/s), within 5 cm of
// where it was dropped, level to 2e-3 rad. Measured: 1.0–1.6 mm away (stock Bullet: 0.15–0.25
// mm), tilted by 1.5 mrad at 1e6 Pa (its weight off the support's centre sinks one side 0.3 mm
// deeper) and by 0.4–0.5 mrad at 1e8 and 1e10 Pa. Not yet right: there a level rest would be
// within 0.02 mrad (stock Bullet: 0.01–0.02 mrad); the patch a step ahead, 2.7 mm deep under
// gravity at 60 Hz, leans 1° at the support's edges.
TEST(StiffScenesTest, ABoxDroppedOffCentreOntoAnotherLandsAndStaysOnIt) {
  auto drop = [](bool patch, double modulus, double yaw) {
    btBoxShape box(btVector3(0.1, 0.1, 0.1));
    ScopedHydroelastic tag(&box, Compliant(modulus));
    TestWorld world(patch);
    world.AddBody(&box, 0, btVector3(0.05, 0.03, -0.1));
    btRigidBody* dropped = world.AddBody(&box, 1, btVector3(0, 0, 1.0), btQuaternion(btVector3(0, 0, 1), yaw));
    world.Step(180, kStep);
    const btTransform& X_WB = dropped->getWorldTransform();
    const double drift = btVector3(X_WB.getOrigin().x(), X_WB.getOrigin().y(), 0).length();
    const btVector3 z_B = X_WB.getBasis().getColumn(2);
    const double tilt = std::atan2(btVector3(z_B.x(), z_B.y(), 0).length(), z_B.z());
    std::printf("%s, E = %.0e Pa, turned %.1f rad: %.2e m from where it was dropped, centre %.6f m up, tilt %.2e rad\n",
                patch ? "patches" : "stock Bullet", modulus, yaw, drift, X_WB.getOrigin().z(), tilt);
    EXPECT_LT(drift, 0.05) << modulus << " " << yaw;
    EXPECT_NEAR(X_WB.getOrigin().z(), 0.1, 1e-3) << modulus << " " << yaw;
    EXPECT_LT(tilt, 2e-3) << modulus << " " << yaw;
    EXPECT_LT(dropped->getLinearVelocity().length(), 1e-3) << modulus << " " << yaw;
  };
  for (double yaw : {0.0, 0.3}) {
    drop(false, 1e8, yaw);  // stock Bullet does not read the modulus
    for (double modulus : {1e6, 1e8, 1e10}) drop(true, modulus, yaw);
  }
}

// A compliant box set on a compliant slab (a 1 m deep half-space of 1e8 Pa, the ground of a
// user who makes the floor soft too), and dropped on it from 0.5 m, at 60 Hz. The box's side walls
// below the slab's face make polygons whose normals lean 6° off the face; their depths −p0/g lay
// centimetres deep while the box was microns in, and unbounded they pushed on the walls with four
// times the box's weight: it rocked out of place, at 1.5 m/s within 2 s. Tolerances: at rest to
// 1e-4 m/s and 1e-4 rad/s, level to 1e-5 rad, after 2 s (measured ≤ 2e-7 m/s and 1e-9 rad/s),
// and its centre within 0.1 mm of 0.1 m (a rigid box: m·g·H/(E·A) = 2.5 µm deep; measured 4 µm),
// 0.4 mm for the 1e6 Pa box (measured 0.27 mm).
TEST(StiffScenesTest, ABoxOnACompliantSlabAt60HzStaysInPlaceAtAnyStiffness) {
  for (const double modulus : {1e6, 1e8, 1e10}) {
    for (const double height : {0.0, 0.5}) {
      btBoxShape box(btVector3(0.1, 0.1, 0.1));
      const ScopedHydroelastic tag(&box, Compliant(modulus));
      btStaticPlaneShape floor(btVector3(0, 0, 1), 0);
      btHydroelasticProperties slab = Compliant(1e8);
      slab.m_slabThickness = 1.0;
      const ScopedHydroelastic floor_tag(&floor, slab);
      TestWorld world;
      world.AddBody(&floor, 0, btVector3(0, 0, 0));
      btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.1 + height));
      for (int s = 0; s < 120; ++s) world.Step(1, kStep);
      const btVector3 up = body->getWorldTransform().getBasis() * btVector3(0, 0, 1);
      EXPECT_LT(body->getLinearVelocity().length(), 1e-4) << modulus << " from " << height;
      EXPECT_LT(body->getAngularVelocity().length(), 1e-4) << modulus << " from " << height;
      EXPECT_LT(std::acos(std::min<btScalar>(up.z(), 1)), 1e-5) << modulus << " from " << height;
      EXPECT_NEAR(body->getCenterOfMassPosition().x(), 0, 1e-4) << modulus << " from " << height;
      EXPECT_NEAR(body->getCenterOfMassPosition().z(), 0.1, 1e-4 + (modulus < 1e7 ? 3e-4 : 0))
          << modulus << " from " << height;
    }
  }
}

TEST(StiffScenesTest, ABlockOfStiffBoxesDroppedAt60HzStaysTogetherAndComesToRest) {
  // 2 × 2 × 2 boxes of 1e6, 1e8 and 1e10 Pa from 0.5 m: the top layer lands on the bottom one in
  // the step the bottom one lands, the case that threw boxes out at their arrival speed. At 1e6
  // the speculative patch once met the boxes at the end of the step 10 cm inside the ground, where
  // the field levels off at their centres: they sank 21 cm and were thrown back up.
  for (double modulus : {1e6, 1e8, 1e10}) {
    const SceneRecord r = DropBlock(2, 0.5, modulus);
    const double free_fall = std::sqrt(2 * kGravity * (0.5 + 0.21));
    EXPECT_LE(r.max_speed, free_fall + kGravity * kStep) << modulus;
    EXPECT_LE(r.deepest, 0.01) << modulus;  // measured ≤ 7 mm, at the impact step
    EXPECT_GE(r.rest_time, 0) << modulus;
  }
}

TEST(StiffScenesTest, BasicDemosBlockLandsAndRestsAtEveryStiffness) {
  // Bullet's BasicDemo: its 5 × 5 × 5 block of 0.2 m boxes (3 × 3 × 3 under the sanitizers, which
  // check memory on the same code paths) from 2 m at 1e6, 1e8 and 1e10 Pa. Deepest below the
  // floor: 1 mm beyond the static depth (µm) for the stiff ones (measured 0.73 mm for 5³, 0.5–0.7 mm
  // for 3³). At 1e6 a bound of "static depth + 1 mm" is not physical: the landing itself
  // compresses a box's k = E·A/H = 4e5 N/m patch by v/ω = 6.2 m/s / 632 s⁻¹ ≈ 1 cm, and the boxes
  // above land on it within a few steps; the bound is that of the whole column's momentum
  // arriving at once, at the top box's free-fall speed v, on an undamped spring, v·√(n·m/k)
  // (26 mm for 5³, 19 mm for 3³; measured 13.1 mm and 9.1 mm).
#ifdef HYDRO_SANITIZED
  constexpr int kSide = 3;
#else
  constexpr int kSide = 5;
#endif
  for (double modulus : {1e6, 1e8, 1e10}) {
    const SceneRecord r = DropBlock(kSide, 2.0, modulus);
    std::printf(
        "BasicDemo %d³ at E = %.0e: fastest %.3f m/s, deepest %.2e m, at rest from %.2f s, final speed %.1e m/s\n",
        kSide, modulus, r.max_speed, r.deepest, r.rest_time, r.final_speed);
    const double free_fall = std::sqrt(2 * kGravity * (2.0 + (kSide - 1) * 0.21));
    EXPECT_LE(r.max_speed, free_fall + kGravity * kStep) << modulus;
    const double landing_bound = free_fall * std::sqrt(kSide * 1.0 / (modulus * 0.2 * 0.2 / 0.1));
    EXPECT_LE(r.deepest, modulus < 1e7 ? landing_bound : 1e-3) << modulus;
    EXPECT_GE(r.rest_time, 0) << modulus;
    EXPECT_LT(r.final_speed, 0.01) << modulus;
  }
}

TEST(StiffScenesTest, PatchContactDoesNotDependOnTheProgramsSolverSettings) {
  // BenchmarkDemo sets 5 iterations after making its world, which overwrote what patch contact
  // asked of Bullet's solver. btHydroelasticConstraintSolver solves patches itself: with Bullet's
  // defaults (split impulse on, two friction directions) and 5 iterations the block still lands,
  // stays together and comes to rest as in the test above.
  const SceneRecord program = DropBlock(2, 0.5, 1e8, [](btContactSolverInfo* info) {
    *info = btContactSolverInfo();  // Bullet's defaults, whatever hydroConfigureSolverInfo set
    info->m_numIterations = 5;
    info->m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
  });
  const double free_fall = std::sqrt(2 * kGravity * (0.5 + 0.21));
  EXPECT_LE(program.max_speed, free_fall + kGravity * kStep);
  EXPECT_LE(program.deepest, 0.01);
  EXPECT_GE(program.rest_time, 0);
}

TEST(StiffScenesTest, ATenBoxStackAt1e9StandsStill) {
  // Ten 10 cm boxes stacked at rest on the floor at E = 1e9 Pa, 60 Hz. Each contact is a near-rigid
  // patch softened to a period of δt/4 for the masses it moves, so the top box settles by the sum
  // of ten such springs' compressions: 0.43 mm measured; the bound asked is 1 mm.
  btBoxShape box(btVector3(0.05, 0.05, 0.05));
  const ScopedHydroelastic tag(&box, Compliant(1e9));
  TestWorld world;
  world.AddGroundBox();
  std::vector<btRigidBody*> bodies;
  for (int i = 0; i < 10; ++i) bodies.push_back(world.AddBody(&box, 1.0, btVector3(0, 0, 0.05 + 0.1 * i)));
  const btVector3 start = bodies.back()->getCenterOfMassPosition();
  const SceneRecord r = RunScene(&world, bodies, 3.0);
  EXPECT_LT((bodies.back()->getCenterOfMassPosition() - start).length(), 1e-3);
  EXPECT_LT(r.max_speed, 0.2);
  EXPECT_LT(r.final_speed, 0.01);
}

// An irregular convex hull of 0.22 m and 1 kg, dropped turned from 1 m onto the ground box at 60 Hz,
// at 1e8 and 1e10 Pa, four turns: it tumbles, lands on a corner or an edge and comes to rest. Its
// contact points' depths were bounded by how far its bounding box reached into the ground, which
// for a turned hull is centimetres past its lowest vertex: a point whose field levels off took a
// depth of 4 cm where the hull was 0.2 mm in, and the solver pushed it out of that in one step —
// the hull jumped 11 cm, gaining up to 1.9 J in a step, and still hopped at 0.45 m/s after 3 s.
// Tolerances: its mechanical energy (kinetic and gravity's) rises by at most 0.1 J over any step,
// 1 % of what the drop gives it (measured ≤ 0.033 J with points on the polygons' centroid fans,
// ≤ 0.064 J with one point a polygon, clipped by the ground's triangles; stock Bullet's own contact: ≤ 0.12 J on the
// same drops); at rest below 1 cm/s after 5 s (it last moves faster, at its centre or 0.15 m from it, at 1.6–2.7 s, and
// at 4.05 s turned three times at 1e10 Pa, which tumbles longer since the fan's points; one point a polygon had every
// case still by 3 s); never more than 1 cm below the floor (measured ≤ 6.6 mm, on landing).
TEST(StiffScenesTest, AConvexHullTumblingOntoTheGroundAt60HzGainsNoEnergyAndComesToRest) {
  btConvexHullShape hull;
  test::AddIrregularHullPoints(&hull);
  for (double modulus : {1e8, 1e10}) {
    const ScopedHydroelastic tag(&hull, Compliant(modulus));
    for (int turn = 0; turn < 4; ++turn) {
      TestWorld world;
      world.AddGroundBox();
      const btQuaternion q(btVector3(0.3 * turn + 0.1, 0.7 * turn + 0.2, 0.8).normalized(), 0.4 * turn + 0.2);
      btRigidBody* body = world.AddBody(&hull, 1.0, btVector3(0, 0, 1.0), q);
      auto energy = [&] {
        const btVector3 v = body->getLinearVelocity(), w = body->getAngularVelocity();
        return 0.5 * v.length2() + 0.5 * w.dot(body->getInvInertiaTensorWorld().inverse() * w) +
               kGravity * body->getCenterOfMassPosition().z();
      };
      double last = energy(), largest_rise = 0, deepest = 0;
      for (int step = 0; step < 300; ++step) {
        world.Step(1, kStep);
        const double now = energy();
        largest_rise = std::max(largest_rise, now - last);
        last = now;
        const btTransform& X = body->getWorldTransform();
        const btVector3 lowest =
            X * hull.localGetSupportingVertexWithoutMargin(X.getBasis().transpose() * btVector3(0, 0, -1));
        deepest = std::max<double>(deepest, -lowest.z());
      }
      std::printf("hull, %g Pa, turn %d: largest rise %.3f J, after 5 s %.1e m/s, deepest %.1f mm\n", modulus, turn,
                  largest_rise, body->getLinearVelocity().length(), 1e3 * deepest);
      EXPECT_LE(largest_rise, 0.1) << modulus << " Pa, turn " << turn;
      EXPECT_LT(body->getLinearVelocity().length(), 0.01) << modulus << " Pa, turn " << turn;
      EXPECT_LE(deepest, 0.01) << modulus << " Pa, turn " << turn;
    }
  }
}

// Steps `world` for `seconds` at 60 Hz and returns the largest rise over one step, from 1 s on, of
// `body`'s mechanical energy (kinetic and gravity's, J/kg).
double StepForLargestEnergyRise(TestWorld* world, const btRigidBody& body, double seconds = 5) {
  auto energy = [&] {
    const btVector3 v = body.getLinearVelocity(), w = body.getAngularVelocity();
    return 0.5 * v.length2() + 0.5 * w.dot(body.getInvInertiaTensorWorld().inverse() * w) +
           kGravity * body.getCenterOfMassPosition().z();
  };
  double last = energy(), largest_rise = 0;
  const int steps = static_cast<int>(std::lround(seconds / kStep));
  for (int step = 0; step < steps; ++step) {
    world->Step(1, kStep);
    const double now = energy();
    if (step >= 60) largest_rise = std::max(largest_rise, now - last);
    last = now;
  }
  return largest_rise;
}

// A compliant sphere and capsule set down on the ground box and on a btStaticPlaneShape at 60 Hz,
// turned eight ways, at 1e6, 1e8 and 1e10 Pa. Their meshes are faceted: a vertex of the sphere's is
// so obtuse that it sinks about 1 mm under the body's weight at 1e10 Pa (its force grows as
// depth³), where a face holds it to microns. Two defects this test has caught:
// - The speculative patch, taken a step's fall ahead and merged to 16 points there, kept each
//   merged point's mean depth, shallower than its points' force where only some of them press
//   now: the body fell through its support for a step and was thrown up from the next. Both kept
//   rolling, at up to 4.5 cm/s after 5 s, and gained up to 0.022 J/kg in a step.
// - With one solver point a polygon, the sphere at 1e6 Pa (1.8 mm deep under its weight, a patch
//   1.9 cm across of a few slices of 2.5 cm tets) rolled from facet to facet on the plane, gaining
//   up to 2.4e-3 J/kg a step, still at 5.9 mm/s after 10 s (turned twice); on the ground box, whose
//   face's triangles then met under it and cut its polygons, it held. Points on the polygons'
//   centroid fans (PairPointQuadrature) fixed it. (The ground box now meets a body that reaches
//   into one face only as the half-space below it: on both supports the sphere's surface is the
//   same, and so are its numbers.) (Whole patches, 16 turns on the plane for 5 s: 11 of 16 cases
//   beyond the bounds with a point a polygon, 2 with the fan's, both of those still rolling.)
// Patches of 16 points, the default budget, set here so that the test keeps merging points if the
// default changes. Tolerances: from 1 s on, no step raises the energy (kinetic and potential) by
// more than 2e-3 J/kg (measured: at most 1.6e-4, the sphere at 1e6 Pa turned seven times). After
// 10 s the centre and the rim (ω·r) move below 5 mm/s (measured: at most 0.78 mm/s). Without
// dissipation a body that landed on a facet's slope rolls down it into a hollow: the sphere at
// 1e6 Pa turned 0 times rolled 8 cm over 7 s on the ground box's triangles, its energy falling all
// the while (before the ground box met it as a half-space), hence the 10 s.
TEST(StiffScenesTest, ASphereAndACapsuleSetDownAt60HzComeToRestAtAnyStiffness) {
  btSphereShape sphere(0.1);
  btCapsuleShapeZ capsule(0.05, 0.1);
  btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
  for (const bool on_plane : {false, true})
    for (btConvexInternalShape* shape :
         {static_cast<btConvexInternalShape*>(&sphere), static_cast<btConvexInternalShape*>(&capsule)})
      for (const double modulus : {1e6, 1e8, 1e10}) {
        const ScopedHydroelastic tag(shape, Compliant(modulus));
        for (int turn = 0; turn < 8; ++turn) {
          TestWorld world;
          world.SetMaxPatchPoints(16);
          if (on_plane)
            world.AddBody(&plane, 0, btVector3(0, 0, 0));
          else
            world.AddGroundBox();
          const btQuaternion q(btVector3(0.3 * turn + 0.1, 0.7 * turn + 0.2, 0.8 - 0.1 * turn).normalized(),
                               0.9 * turn + 0.3);
          btVector3 lo, hi;
          shape->getAabb(btTransform(q), lo, hi);
          btRigidBody* body = world.AddBody(shape, 1.0, btVector3(0, 0, 0.002 - lo.z()), q);
          body->setFriction(0.5);
          const btVector3 size = hi - lo;
          const double reach = 0.5 * std::max({size.x(), size.y(), size.z()});
          const double largest_rise = StepForLargestEnergyRise(&world, *body, 10.0);
          const double speed = body->getLinearVelocity().length();
          const double rim_speed = body->getAngularVelocity().length() * reach;
          const char* name = shape == &sphere ? "sphere" : "capsule";
          const char* support = on_plane ? "plane" : "ground box";
          std::printf("%s on the %s, %g Pa, turn %d: largest rise %.2e J/kg, after 10 s %.2e m/s, rim %.2e m/s\n", name,
                      support, modulus, turn, largest_rise, speed, rim_speed);
          EXPECT_LE(largest_rise, 2e-3) << name << " on the " << support << ", " << modulus << " Pa, turn " << turn;
          EXPECT_LT(speed, 0.005) << name << " on the " << support << ", " << modulus << " Pa, turn " << turn;
          EXPECT_LT(rim_speed, 0.005) << name << " on the " << support << ", " << modulus << " Pa, turn " << turn;
        }
      }
}

// Two compliant 0.2 m boxes stacked on the floor at 60 Hz, patches reduced to 4, 5 and 16 points.
// Their patch has off-normal polygons at the edges, which take a share of the budget: at 4 points
// that left the face a 2 × 1 grid, two points on a line, and the top box rocked about it at
// 0.14 m/s (with 0.1 m × its spin) for good. Tolerance: at rest, below 1 cm/s and 0.1 rad/s, over
// the last 2 s of 5 (measured ≤ 5 mm/s for 4 points, 0 for the others).
TEST(StiffScenesTest, ATwoBoxStackWithFourPointPatchesComesToRest) {
  for (const int max_points : {4, 5, 16})
    for (const double modulus : {1e7, 1e8}) {
      btBoxShape box(btVector3(0.1, 0.1, 0.1));
      const ScopedHydroelastic tag(&box, Compliant(modulus));
      TestWorld world;
      world.SetMaxPatchPoints(max_points);
      world.AddGroundBox();
      world.AddBody(&box, 1.0, btVector3(0, 0, 0.099));
      btRigidBody* top = world.AddBody(&box, 1.0, btVector3(0, 0, 0.298));
      double fastest = 0, fastest_spin = 0;
      for (int s = 0; s < 300; ++s) {
        world.Step(1, kStep);
        if (s < 180) continue;
        fastest = std::max<double>(fastest, top->getLinearVelocity().length());
        fastest_spin = std::max<double>(fastest_spin, top->getAngularVelocity().length());
      }
      EXPECT_LT(fastest, 0.01) << max_points << " points, E = " << modulus;
      EXPECT_LT(fastest_spin, 0.1) << max_points << " points, E = " << modulus;
    }
}

// Bullet's island joins bodies whose bounding boxes overlap, so a 3 × 3 grid of two-box columns
// 1 cm apart is one island; the columns touch only through the fixed floor, so they are nine
// independent problems, each solved on its own, and each column ends where it ends alone: to
// 10 µm after landing at 1 m/s and resting 1 s, since each solve stops at 1e-6 of the momentum
// (hydro/patch_problem.h) and the order of Bullet's sums differs (measured 3.5 µm).
TEST(StiffScenesTest, IndependentStacksInOneIslandAreSolvedApartAsEachAlone) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e8));
  auto run = [&](int first, int last, int* problems, int* island_tags) {
    TestWorld world;
    world.AddGroundBox();
    std::vector<btRigidBody*> bodies;
    for (int c = first; c < last; ++c)
      for (int k = 0; k < 2; ++k)
        bodies.push_back(world.AddBody(&box, 1.0, btVector3(0.21 * (c % 3), 0.21 * (c / 3), 0.15 + 0.21 * k)));
    world.Step(60, kStep);
    *problems = static_cast<btHydroelasticConstraintSolver*>(world.solver())->lastPatchProblems();
    std::vector<int> tags;
    for (const btRigidBody* body : bodies) tags.push_back(body->getIslandTag());
    std::sort(tags.begin(), tags.end());
    *island_tags = static_cast<int>(std::unique(tags.begin(), tags.end()) - tags.begin());
    std::vector<btVector3> end;
    for (const btRigidBody* body : bodies) end.push_back(body->getCenterOfMassPosition());
    return end;
  };
  int problems = 0, islands = 0;
  const std::vector<btVector3> together = run(0, 9, &problems, &islands);
  EXPECT_EQ(islands, 1);
  EXPECT_EQ(problems, 9);
  for (int c = 0; c < 9; ++c) {
    int alone_problems = 0, alone_islands = 0;
    const std::vector<btVector3> alone = run(c, c + 1, &alone_problems, &alone_islands);
    EXPECT_EQ(alone_problems, 1);
    for (int k = 0; k < 2; ++k)
      EXPECT_LT((together[2 * c + k] - alone[k]).length(), 1e-5) << "column " << c << ", box " << k;
  }
}

}  // namespace
}  // namespace hydro

namespace hydro {
namespace {

// A square pyramid of 0.2 m cubes (4 layers, 30 boxes: one island of 180 unknowns, at least
// reuse_factorization_from) at rest at 1e8 Pa and 60 Hz. Newton's matrix of a pile at rest changes little from step to
// step, so its last factorization preconditions the next steps' Newton systems: once settled, no
// step factorizes. Each cube's mobility has three equal inertias; factored with pivoting, their
// order followed round-off and changed every step, and every step factorized anew (30 in 30 steps;
// the 1,015-box pyramid spent 230 ms a step on it). Tolerance: at most 2 factorizations in the last
// 30 of 210 steps (measured 0).
TEST(StiffScenesTest, APyramidAtRestReusesItsFactorization) {
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(1e8));
  TestWorld world;
  world.AddGroundBox();
  const std::vector<btRigidBody*> bodies = world.AddCubePyramid(&box, 0.2, 4);
  const SceneRecord settle = RunScene(&world, bodies, 3.0);
  EXPECT_LT(settle.final_speed, 1e-3);
  auto* solver = dynamic_cast<btHydroelasticConstraintSolver*>(world.solver());
  ASSERT_NE(solver, nullptr);
  int factorizations = 0, iterations = 0;
  for (int s = 0; s < 30; ++s) {
    world.Step(1, kStep);
    factorizations += solver->lastFactorizations();
    iterations += solver->lastNewtonIterations();
  }
  EXPECT_GT(iterations, 0);  // the solves did run
  EXPECT_LE(factorizations, 2);
  std::printf("pyramid at rest: %d factorizations and %d Newton iterations in 30 steps\n", factorizations, iterations);
}

// BenchmarkDemo's pyramid of boxes, as plugin_bench's BM_StepPyramid: 1,015 boxes of 0.2 m and
// 1 kg in 14 layers, 1 mm apart in each layer and each box on the corners of four below (91 boxes
// in 6 layers under the sanitizers), built at rest on the rigid ground box, every box compliant,
// stepped 5 s at 60 Hz with sleeping off. What a Bullet user expects of it, with N layers, and
// k = E·A/h = 0.4·E the stiffness of a box's face on the rigid floor (the BasicDemo test above):
// - no box faster than the free fall through the most any box has sunk, plus a step of gravity
//   (measured at most 0.096 m/s at 1e6 Pa and 0.014 m/s at 1e8 and 1e10 Pa, against bounds of
//   0.44 and 0.25 m/s);
// - no box deeper in the floor than its static depth, at most a column's weight N·m·g/k, plus
//   1 mm (measured 0.31 mm at 1e6 Pa, 0.06 mm at 1e8 and 1e10 Pa);
// - every box below 1 cm/s for good by the end (measured from 0.1 s at 1e6 Pa and 0.03 s at 1e8
//   and 1e10 Pa), and below 1 cm/s at the end (measured at most 7e-5 m/s);
// - the apex sinks by at most 1 mm, or where more is elastic, by a column of N boxes whose
//   contacts each carry the boxes above them at k/2 (two boxes' fields in series):
//   Σ i·m·g/(k/2) = N·(N+1)·m·g/k, 5.2 mm at 1e6 Pa (measured 3.9 mm at 1e6 Pa, 0.35 mm at 1e8
//   and 1e10 Pa, where the near-rigid patches are softened to what δt resolves; 0.76 mm at 1e6 Pa
//   for 6 layers, against 1.03 mm).
// Stock Bullet, in a scratch run of the same scene, holds it with a box at up to 0.82 m/s and
// 8.6 mm moved. With the patches' points solved by Bullet's own solver instead (a
// btSequentialImpulseConstraintSolver in TestWorld), the 1e8 Pa pyramid fails four checks: boxes at
// 1.5 m/s to the end, 1.2 mm in the floor, the apex sunk 1.7 mm.
class StiffPyramidTest : public ::testing::TestWithParam<double> {};

TEST_P(StiffPyramidTest, BenchmarkDemosPyramidStandsAt60Hz) {
#ifdef HYDRO_SANITIZED
  constexpr int kLayers = 6;
#else
  constexpr int kLayers = 14;
#endif
  const double modulus = GetParam();
  btBoxShape box(btVector3(0.1, 0.1, 0.1));
  const ScopedHydroelastic tag(&box, Compliant(modulus));
  TestWorld world;
  world.AddGroundBox();
  const std::vector<btRigidBody*> bodies = world.AddCubePyramid(&box, 0.2, kLayers);
  std::vector<double> start_z;
  for (btRigidBody* body : bodies) {
    body->setActivationState(DISABLE_DEACTIVATION);
    start_z.push_back(body->getCenterOfMassPosition().z());
  }
  const SceneRecord r = RunScene(&world, bodies, 5.0);
  double most_sunk = 0;
  for (size_t i = 0; i < bodies.size(); ++i)
    most_sunk = std::max(most_sunk, start_z[i] - bodies[i]->getCenterOfMassPosition().z());
  const double apex_sunk = start_z.back() - bodies.back()->getCenterOfMassPosition().z();
  std::printf(
      "pyramid of %zu at E = %.0e: fastest %.4f m/s, deepest %.2e m, at rest from %.2f s, final %.1e m/s, "
      "apex sunk %.2e m\n",
      bodies.size(), modulus, r.max_speed, r.deepest, r.rest_time, r.final_speed, apex_sunk);
  const double weight = 1.0 * kGravity, k = 0.4 * modulus;
  EXPECT_LE(r.max_speed, std::sqrt(2 * kGravity * most_sunk) + kGravity * kStep);
  EXPECT_LE(r.deepest, kLayers * weight / k + 1e-3);
  EXPECT_GE(r.rest_time, 0);
  EXPECT_LT(r.final_speed, 0.01);
  EXPECT_LE(apex_sunk, std::max(1e-3, kLayers * (kLayers + 1) * weight / k));
}

INSTANTIATE_TEST_SUITE_P(Moduli, StiffPyramidTest, ::testing::Values(1e6, 1e8, 1e10));

// A compliant box (0.2 × 0.14 × 0.1 m, 1 kg) leaning on a rigid wall, its lower edge on the rigid
// floor, at 60 Hz: set down 2 mm above both, turned 55° and 60° about an axis near its short
// horizontal one (its long axis 54° and 59° from the floor), at 1e6, 1e8 and 1e10 Pa, in patches
// of 16 points (the default, set here). Resting on an edge, its force grows like depth², and the
// speculative patch a step's fall ahead (2.7 mm deep) was made of strips pressing deep at the edge
// and not at all at their rims: carried back to the present poses by their centroids they lay
// apart, the box sank through its support for three steps, and the surface found it deep then
// threw it up. At 1e6 Pa it did so for good, every six steps, at up to 5.5 cm/s, gaining up to
// 0.01 J in a step (in a scratch run the same cycle kept a box of a 64-body pile at 1e8 Pa hopping
// at 9 cm/s in the float build). Without the surface at the present poses beside the patch ahead
// the 1e6 Pa cases fail; without the points of the patch ahead beside it, the hull of
// AConvexHullTumblingOntoTheGroundAt60HzGainsNoEnergyAndComesToRest does. Tolerances: from 1 s on
// no step raises its energy (kinetic and gravity's) by more than 1e-3 J (measured after the fix:
// at most 4.1e-4, at 1e10 Pa); after 5 s the centre and the rim (ω times the half-diagonal) move
// below 5 mm/s (measured: at most 2.4 mm/s and 1.6 mm/s); and it still leans, its centre above
// 0.103 m (standing on its end it would be at 0.1 m; measured 0.107–0.111 m).
TEST(StiffScenesTest, ABoxLeaningOnAWallAt60HzComesToRestAtAnyStiffness) {
  btBoxShape box(btVector3(0.1, 0.07, 0.05));
  btBoxShape wall(btVector3(0.05, 1, 1));
  const double half_diagonal = box.getHalfExtentsWithMargin().length();
  for (const double modulus : {1e6, 1e8, 1e10}) {
    const ScopedHydroelastic tag(&box, Compliant(modulus));
    for (const double degrees : {55.0, 60.0}) {
      TestWorld world;
      world.SetMaxPatchPoints(16);
      world.AddGroundBox()->setFriction(0.5);
      const btQuaternion q(btVector3(0.05, 1, 0.1).normalized(), degrees * M_PI / 180);
      btVector3 lo, hi;
      box.getAabb(btTransform(q), lo, hi);
      // The wall on the side the box leans to: away from its lowest corner.
      btVector3 lowest(0, 0, 1e9);
      for (int v = 0; v < 8; ++v) {
        btVector3 p;
        box.getVertex(v, p);
        p = btMatrix3x3(q) * p;
        if (p.z() < lowest.z()) lowest = p;
      }
      const double side = lowest.x() > 0 ? -1 : 1;
      const double face = side > 0 ? hi.x() + 0.002 : lo.x() - 0.002;
      world.AddBody(&wall, 0, btVector3(face + side * 0.05, 0, 1))->setFriction(0.5);
      btRigidBody* body = world.AddBody(&box, 1.0, btVector3(0, 0, 0.002 - lo.z()), q);
      body->setFriction(0.5);
      const double largest_rise = StepForLargestEnergyRise(&world, *body);
      EXPECT_LE(largest_rise, 1e-3) << modulus << " Pa, " << degrees << "°";
      EXPECT_LT(body->getLinearVelocity().length(), 0.005) << modulus << " Pa, " << degrees << "°";
      EXPECT_LT(body->getAngularVelocity().length() * half_diagonal, 0.005) << modulus << " Pa, " << degrees << "°";
      EXPECT_GT(body->getCenterOfMassPosition().z(), 0.103) << modulus << " Pa, " << degrees << "°";
    }
  }
}

}  // namespace
}  // namespace hydro
