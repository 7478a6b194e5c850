// A rigid two-finger gripper on a btMultiBody (prismatic joints, Bullet's joint motors) closes on
// a soft cube, lifts it 10 cm and shakes it at 2 Hz (±2 cm, peak acceleration 3.2 m/s²): friction
// from the patch contact holds it without slipping out.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/fem/gripper_scene.h"

namespace hydro {
namespace fem {
namespace {

TEST(GripperTest, LiftsAndShakesASoftCubeWithoutSlipping) {
  scenes::GripperScene scene(0.06, 4, 5e4, 1.0);
  const double dt = 0.01;
  const double resting = scene.object().CalcCenterOfMass().z();
  while (scene.time() < 1.5 - 1e-9) scene.Step(dt);
  const double lifted = scene.object().CalcCenterOfMass().z();
  const double in_grip = scene.ObjectHeightInGrip();
  double lowest = in_grip, highest = in_grip;
  bool converged = true;
  while (scene.time() < 2.5 - 1e-9) {
    scene.Step(dt);
    lowest = std::min(lowest, scene.ObjectHeightInGrip());
    highest = std::max(highest, scene.ObjectHeightInGrip());
    converged = converged && scene.deformables().getLastReports()[0].converged;
  }
  const double slip = in_grip - scene.ObjectHeightInGrip();
  std::printf(
      "gripper: cube (%d tets, %.3f kg) lifted by %.4f m; over 1 s of shaking its place in the grip moved "
      "%.2f mm (range %.2f mm), %d contact points\n",
      scene.object().num_tets(), scene.object().CalcMass(), lifted - resting, 1e3 * slip, 1e3 * (highest - lowest),
      scene.deformables().getLastNumContacts());
  EXPECT_TRUE(converged);
  EXPECT_NEAR(lifted - resting, 0.1, 5e-3);  // carried up by the 10 cm lift
  EXPECT_LT(std::abs(slip), 2e-3);
  EXPECT_LT(highest - lowest, 4e-3);
}

}  // namespace
}  // namespace fem
}  // namespace hydro
