#include "demos/hydrobullet/simulation.h"

#include <cmath>
#include <map>

#include "adapters/bullet_conversions.h"
#include "hydro/contact_surface.h"
#include "hydro/vtk_volume_mesh.h"
#include "plugin/btHydroelasticCollisionConfiguration.h"
#include "plugin/btHydroelasticContactQuery.h"
#include "plugin/btHydroelasticMultiBodyConstraintSolver.h"
#include "plugin/btHydroelasticSolverSettings.h"
#include "urdf/bullet_world_file.h"

namespace hydro {
namespace cli {

using bullet::ToEigen;

Simulation::Simulation(bool use_plugin) : plugin(use_plugin) {
  if (plugin)
    configuration = std::make_unique<btHydroelasticCollisionConfiguration>();
  else
    configuration = std::make_unique<btDefaultCollisionConfiguration>();
  dispatcher = std::make_unique<btCollisionDispatcher>(configuration.get());
  if (plugin)
    solver = std::make_unique<btHydroelasticMultiBodyConstraintSolver>();
  else
    solver = std::make_unique<btMultiBodyConstraintSolver>();
  world = std::make_unique<btMultiBodyDynamicsWorld>(dispatcher.get(), &broadphase, solver.get(), configuration.get());
  if (plugin) hydroConfigureSolverInfo(world->getSolverInfo());
}

Simulation::~Simulation() {
  deformable_stepper.reset();
  built.reset();
}

void Simulation::Step(double dt) {
  built->ApplyJointMotors(time, dt);
  built->ApplyJointDamping();
  world->stepSimulation(dt, 0, dt);
  time += dt;
}

namespace {

void ReportDiagnostics(const urdf::Diagnostics& diagnostics, std::string* errors, std::string* warnings) {
  *errors = diagnostics.FirstError().empty() ? "" : diagnostics.FirstError() + "\n";
  for (const urdf::Diagnostic& d : diagnostics.all()) {
    if (!d.is_error)
      *warnings += d.ToString() + "\n";
    else if (d.ToString() + "\n" != *errors)
      *errors += d.ToString() + "\n";
  }
}

// A .bullet world: its own gravity and step (the saving program's btContactSolverInfo).
bool LoadBulletWorld(const std::string& file, const urdf::BuildOptions& build_options,
                     const std::vector<urdf::ComplianceRule>& rules, Simulation* simulation, std::string* errors,
                     std::string* warnings) {
  urdf::Diagnostics diagnostics;
  simulation->built =
      urdf::LoadBulletWorldFile(file, simulation->world.get(), rules, build_options.patch_contact, &diagnostics);
  ReportDiagnostics(diagnostics, errors, warnings);
  if (!simulation->built) return false;
  simulation->scene = urdf::Scene();
  simulation->scene.file = file;
  simulation->scene.gravity_W = ToEigen(simulation->world->getGravity());
  const double step = simulation->world->getSolverInfo().m_timeStep;
  simulation->scene.step_size_s = step > 0 && std::isfinite(step) ? step : 1.0 / 60;
  // The file's solver settings replaced the world's; patch contact needs its own.
  if (simulation->plugin) hydroConfigureSolverInfo(simulation->world->getSolverInfo());
  // --set: the file's rigid bodies by name (a multibody's links follow their joints).
  auto rigid_body = [&](const std::string& name, const char* property) -> btRigidBody* {
    const urdf::BuiltBody* body = simulation->built->Find(name);
    if (body && body->rigid_body && !body->is_static) return body->rigid_body;
    *errors = "--set " + name + "." + property + ": no moving rigid body named '" + name + "' in " + file + "\n";
    return nullptr;
  };
  for (const auto& [name, X_WB] : build_options.poses) {
    btRigidBody* body = rigid_body(name, "pose");
    if (!body) return false;
    body->setWorldTransform(bullet::ToBullet(X_WB));
    body->setInterpolationWorldTransform(body->getWorldTransform());
  }
  for (const auto& [name, velocity] : build_options.velocities) {
    btRigidBody* body = rigid_body(name, "velocity");
    if (!body) return false;
    body->setLinearVelocity(bullet::ToBullet(velocity.v_W));
    body->setAngularVelocity(bullet::ToBullet(velocity.w_W));
    body->activate(true);
  }
  simulation->world->updateAabbs();
  return true;
}

}  // namespace

bool LoadSimulation(const std::string& file, const urdf::ReadOptions& read_options,
                    const urdf::BuildOptions& build_options, const std::vector<urdf::ComplianceRule>& rules,
                    Simulation* simulation, std::string* errors, std::string* warnings) {
  if (urdf::IsBulletWorldFile(file)) return LoadBulletWorld(file, build_options, rules, simulation, errors, warnings);
  urdf::Diagnostics diagnostics;
  auto scene = urdf::ReadModelFile(file, read_options, &diagnostics);
  if (scene) {
    if (!rules.empty()) urdf::ApplyComplianceRules(rules, &*scene);
    simulation->scene = *scene;
    simulation->built = urdf::BuildScene(*scene, simulation->world.get(), build_options, &diagnostics);
  }
  ReportDiagnostics(diagnostics, errors, warnings);
  if (!scene || !simulation->built) return false;
  // Deformables: their tet meshes placed at X_WD, corotational FEM (fem/), stepped by Bullet.
  for (const urdf::Deformable& d : scene->deformables) {
    try {
      const VolumeMeshWithExtent mesh = ReadVtkVolumeMesh(d.mesh_path);
      std::vector<Vector3> vertices;
      for (const Vector3& p : mesh.mesh->vertices()) vertices.push_back(d.X_WD * p);
      fem::Material material;
      material.youngs_modulus_Pa = d.youngs_modulus_Pa;
      material.poisson_ratio = d.poisson_ratio;
      material.density_kg_per_m3 = d.mass_density_kg_per_m3;
      material.mass_damping_1_per_s = d.mass_damping;
      material.stiffness_damping_s = d.stiffness_damping;
      simulation->deformables.push_back(std::make_unique<fem::FemBody>(d.name, vertices, mesh.mesh->tets(), material));
    } catch (const InvalidInput& e) {
      *errors = d.where.ToString() + ": error: " + e.what() + "\n";
      return false;
    }
  }
  if (!simulation->deformables.empty()) {
    auto& stepper = simulation->deformable_stepper;
    stepper = std::make_unique<btDeformableBodies>(simulation->world.get());
    if (scene->stiction_speed_m_per_s) stepper->setStictionSpeed(*scene->stiction_speed_m_per_s);
    for (size_t k = 0; k < scene->deformables.size(); ++k) {
      const urdf::Deformable& d = scene->deformables[k];
      fem::FemBody* body = simulation->deformables[k].get();
      if (d.friction)
        stepper->addBody(body, *d.friction);
      else
        stepper->addBody(body);  // its default μ
      stepper->setTriangleFanContact(body, d.triangle_fan_contact);
    }
  }
  return true;
}

namespace {

// The area-weighted mean of the polygons' normals (out of b into a), unit length.
Vector3 MeanNormal(const ContactSurface& surface) {
  Vector3 n = Vector3::Zero();
  for (const ContactPolygon& polygon : surface.polygons()) n += polygon.area_m2 * polygon.nhat_BA_W;
  return n.norm() > 0 ? Vector3(n.normalized()) : n;
}

std::string NameOf(const Simulation& simulation, const btCollisionObject* object) {
  const urdf::BuiltBody* body = simulation.built->FindByCollider(object);
  return body ? body->name : "?";
}

}  // namespace

std::vector<PairReport> ElasticPatchReports(const Simulation& simulation) {
  std::vector<PairReport> reports;
  if (!simulation.plugin) return reports;
  for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(simulation.dispatcher.get(), 1.0)) {
    const ContactSurface& surface = *patch.m_surface;
    PairReport report;
    report.a = NameOf(simulation, patch.m_body0);
    report.b = NameOf(simulation, patch.m_body1);
    report.polygons = surface.num_polygons();
    report.area_m2 = surface.CalcTotalArea();
    report.force_N = surface.CalcElasticForceOnA();
    report.torque_Nm = surface.CalcElasticMomentOnA();
    const double total = surface.CalcPressureIntegral();
    if (total > 0) report.center_of_pressure_m = surface.CalcPressureFirstMoment() / total;
    report.max_pressure_Pa = surface.CalcMaxPressure();
    report.normal_force_N = report.force_N.dot(MeanNormal(surface));
    reports.push_back(report);
  }
  return reports;
}

std::vector<PairReport> SolverPairReports(const Simulation& simulation, double dt) {
  std::vector<PairReport> reports;
  std::map<std::pair<const btCollisionObject*, const btCollisionObject*>, size_t> by_pair;
  if (simulation.plugin) {
    for (const btHydroelasticContactPatch& patch : hydroGetContactPatches(simulation.dispatcher.get(), dt)) {
      PairReport report;
      report.a = NameOf(simulation, patch.m_body0);
      report.b = NameOf(simulation, patch.m_body1);
      report.polygons = patch.m_surface->num_polygons();
      report.area_m2 = patch.m_area;
      report.force_N = ToEigen(patch.m_forceOnBody0);
      report.torque_Nm = ToEigen(patch.m_torqueOnBody0);
      report.center_of_pressure_m = ToEigen(patch.m_centerOfPressure);
      report.max_pressure_Pa = patch.m_surface->CalcMaxPressure();
      report.normal_force_N = report.force_N.dot(MeanNormal(*patch.m_surface));
      by_pair[{patch.m_body0, patch.m_body1}] = reports.size();
      reports.push_back(report);
    }
  }
  // Bullet's own manifolds (all of them without the plugin; untagged pairs with it).
  const int num_manifolds = simulation.dispatcher->getNumManifolds();
  for (int m = 0; m < num_manifolds; ++m) {
    const btPersistentManifold* manifold = simulation.dispatcher->getInternalManifoldPointer()[m];
    if (manifold->getNumContacts() == 0) continue;
    const auto key = std::make_pair(manifold->getBody0(), manifold->getBody1());
    if (simulation.plugin && by_pair.count(key)) continue;  // a patch's manifolds, reported above
    PairReport report;
    report.a = NameOf(simulation, manifold->getBody0());
    report.b = NameOf(simulation, manifold->getBody1());
    double normal_total = 0;
    Vector3 weighted = Vector3::Zero();
    for (int i = 0; i < manifold->getNumContacts(); ++i) {
      const btManifoldPoint& cp = manifold->getContactPoint(i);
      const btVector3 impulse = cp.m_normalWorldOnB * cp.m_appliedImpulse +
                                cp.m_lateralFrictionDir1 * cp.m_appliedImpulseLateral1 +
                                cp.m_lateralFrictionDir2 * cp.m_appliedImpulseLateral2;
      const Vector3 force = ToEigen(impulse) / dt;
      report.force_N += force;
      report.torque_Nm += ToEigen(cp.m_positionWorldOnB).cross(force);
      normal_total += cp.m_appliedImpulse;
      weighted += cp.m_appliedImpulse * ToEigen(cp.m_positionWorldOnB);
      ++report.polygons;
    }
    if (normal_total > 0) report.center_of_pressure_m = weighted / normal_total;
    report.normal_force_N = normal_total / dt;
    reports.push_back(report);
  }
  return reports;
}

}  // namespace cli
}  // namespace hydro
