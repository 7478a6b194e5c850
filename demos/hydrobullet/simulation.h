#pragma once
// A Bullet multibody world built from a model file, with or without the plugin, and the
// per-pair contact reports the tool writes.
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <memory>
#include <string>
#include <vector>

#include "fem/btDeformableBodies.h"
#include "fem/fem_body.h"
#include "urdf/bullet_builder.h"
#include "urdf/compliance_rules.h"
#include "urdf/model_files.h"

namespace hydro {
namespace cli {

struct Simulation {
  // `plugin`: btHydroelasticCollisionConfiguration, btHydroelasticMultiBodyConstraintSolver and
  // hydroConfigureSolverInfo; else stock.
  explicit Simulation(bool plugin);
  ~Simulation();
  // Drives the file's joint motors to their targets at `time`, then steps by dt.
  void Step(double dt);

  bool plugin;
  double time{0};  // s, advanced by Step
  std::unique_ptr<btCollisionConfiguration> configuration;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  btDbvtBroadphase broadphase;
  std::unique_ptr<btMultiBodyConstraintSolver> solver;
  std::unique_ptr<btMultiBodyDynamicsWorld> world;
  urdf::Scene scene;
  std::unique_ptr<urdf::BuiltScene> built;
  // The file's deformable bodies, stepped inside the world's stepSimulation.
  std::vector<std::unique_ptr<fem::FemBody>> deformables;
  std::unique_ptr<btDeformableBodies> deformable_stepper;
};

// Reads and builds a model file, with `rules` replacing its compliance tags where they match, or
// loads a .bullet world and tags it by `rules`. On failure returns false with every diagnostic in
// *errors (first line first); warnings go to *warnings.
bool LoadSimulation(const std::string& file, const urdf::ReadOptions& read_options,
                    const urdf::BuildOptions& build_options, const std::vector<urdf::ComplianceRule>& rules,
                    Simulation* simulation, std::string* errors, std::string* warnings);

// One touching pair: force and torque on `a` (torque about the world origin), world frame.
struct PairReport {
  std::string a, b;
  int polygons{0};  // patch polygons (stock Bullet: contact points)
  double area_m2{0};
  Vector3 force_N{Vector3::Zero()};
  Vector3 torque_Nm{Vector3::Zero()};
  Vector3 center_of_pressure_m{Vector3::Zero()};
  double max_pressure_Pa{0};
  // The force's component along the contact normal, pushing `a` away from `b`: along the patch's
  // area-weighted normal, or the sum of Bullet's normal impulses over the step.
  double normal_force_N{0};
};

// The elastic wrench of every patch from its surface (no solve needed): `contact`.
std::vector<PairReport> ElasticPatchReports(const Simulation& simulation);
// The wrench the solver applied in the last step of length dt, per pair: `run`. With the plugin,
// patches (and Bullet's own points of untagged pairs); without, Bullet's points.
std::vector<PairReport> SolverPairReports(const Simulation& simulation, double dt);

}  // namespace cli
}  // namespace hydro
