#include "urdf/btHydroelasticModelLoader.h"

#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "adapters/bullet_conversions.h"
#include "urdf/bullet_builder.h"
#include "urdf/bullet_world_file.h"
#include "urdf/compliance_rules.h"
#include "urdf/diagnostics.h"
#include "urdf/model_files.h"

struct btHydroelasticModelLoader::Impl {
  std::string rules;
  bool multibody{true};
  hydro::urdf::SearchPaths search;
  std::unique_ptr<hydro::urdf::BuiltScene> built;
  std::string errors, warnings;
  btVector3 gravity{0, 0, -9.81};
  btScalar step{btScalar(1.0 / 60)};

  const hydro::urdf::BuiltBody* Body(int index) const {
    if (!built || index < 0 || index >= static_cast<int>(built->bodies().size())) return nullptr;
    return &built->bodies()[index];
  }
  void Report(const hydro::urdf::Diagnostics& diagnostics) {
    for (const hydro::urdf::Diagnostic& d : diagnostics.all()) (d.is_error ? errors : warnings) += d.ToString() + "\n";
  }
  bool Load(const std::string& path, btMultiBodyDynamicsWorld* world);
};

bool btHydroelasticModelLoader::Impl::Load(const std::string& path, btMultiBodyDynamicsWorld* world) {
  hydro::urdf::Diagnostics diagnostics;
  std::vector<hydro::urdf::ComplianceRule> parsed_rules;
  if (!rules.empty()) {
    auto parsed = hydro::urdf::ParseComplianceRules(rules, "rules", &diagnostics);
    if (!parsed) {
      Report(diagnostics);
      return false;
    }
    parsed_rules = std::move(*parsed);
  }
  built.reset();  // what the last load added leaves the world first
  if (hydro::urdf::IsBulletWorldFile(path)) {
    // The saving program's solver settings come with the file; the world keeps its own (patch
    // contact needs them, hydroConfigureSolverInfo) and the file's step is reported.
    const btContactSolverInfo own = world->getSolverInfo();
    built = hydro::urdf::LoadBulletWorldFile(path, world, parsed_rules, /*patch_contact=*/true, &diagnostics);
    Report(diagnostics);
    const btScalar saved_step = world->getSolverInfo().m_timeStep;
    world->getSolverInfo() = own;
    if (!built) return false;
    gravity = world->getGravity();
    step = saved_step > 0 && std::isfinite(saved_step) ? saved_step : btScalar(1.0 / 60);
    return true;
  }
  hydro::urdf::ReadOptions read_options;
  read_options.search = search;
  auto scene = hydro::urdf::ReadModelFile(path, read_options, &diagnostics);
  if (scene) {
    if (!parsed_rules.empty()) hydro::urdf::ApplyComplianceRules(parsed_rules, &*scene);
    hydro::urdf::BuildOptions build_options;
    build_options.multibody = multibody;
    built = hydro::urdf::BuildScene(*scene, world, build_options, &diagnostics);
    if (built && !scene->deformables.empty())
      diagnostics.Warning(path, 0, "its deformable bodies are not loaded here (the hydrobullet tool loads them)");
  }
  Report(diagnostics);
  if (!scene || !built) return false;
  gravity = hydro::bullet::ToBullet(scene->gravity_W);
  step = static_cast<btScalar>(scene->step_size_s);
  return true;
}

btHydroelasticModelLoader::btHydroelasticModelLoader() : m_impl(new Impl) {}
btHydroelasticModelLoader::~btHydroelasticModelLoader() { delete m_impl; }

void btHydroelasticModelLoader::setRules(const char* rules) { m_impl->rules = rules ? rules : ""; }
void btHydroelasticModelLoader::setUseMultiBody(bool on) { m_impl->multibody = on; }
void btHydroelasticModelLoader::addPackagePath(const char* directory) {
  if (directory) m_impl->search.package_paths.push_back(directory);
}
void btHydroelasticModelLoader::addModelPath(const char* directory) {
  if (directory) m_impl->search.model_paths.push_back(directory);
}
void btHydroelasticModelLoader::setUseEnvironmentPaths(bool on) { m_impl->search.use_environment = on; }

bool btHydroelasticModelLoader::loadFile(const char* path, btMultiBodyDynamicsWorld* world) {
  m_impl->errors.clear();
  m_impl->warnings.clear();
  if (!path || !world) {
    m_impl->errors = "btHydroelasticModelLoader::loadFile: null path or world\n";
    return false;
  }
  try {
    return m_impl->Load(path, world);
  } catch (const std::exception& e) {
    // The readers report bad input as diagnostics; this is for what they could not foresee
    // (out of memory), which must not escape a Bullet-style call either.
    m_impl->errors += std::string(path) + ": error: " + e.what() + "\n";
    return false;
  }
}

const char* btHydroelasticModelLoader::getErrors() const { return m_impl->errors.c_str(); }
const char* btHydroelasticModelLoader::getWarnings() const { return m_impl->warnings.c_str(); }

int btHydroelasticModelLoader::getNumBodies() const {
  return m_impl->built ? static_cast<int>(m_impl->built->bodies().size()) : 0;
}
const char* btHydroelasticModelLoader::getBodyName(int index) const {
  const auto* body = m_impl->Body(index);
  return body ? body->name.c_str() : nullptr;
}
btCollisionObject* btHydroelasticModelLoader::getCollisionObject(int index) const {
  const auto* body = m_impl->Body(index);
  return body ? body->collider : nullptr;
}
btRigidBody* btHydroelasticModelLoader::getRigidBody(int index) const {
  const auto* body = m_impl->Body(index);
  return body ? body->rigid_body : nullptr;
}
btMultiBody* btHydroelasticModelLoader::getMultiBody(int index, int* linkIndex) const {
  const auto* body = m_impl->Body(index);
  if (linkIndex) *linkIndex = body && body->multibody ? body->link_index : -1;
  return body ? body->multibody : nullptr;
}
int btHydroelasticModelLoader::findBody(const char* name) const {
  if (!m_impl->built || !name) return -1;
  const hydro::urdf::BuiltBody* body = m_impl->built->Find(name);
  return body ? static_cast<int>(body - m_impl->built->bodies().data()) : -1;
}
btRigidBody* btHydroelasticModelLoader::findRigidBody(const char* name) const { return getRigidBody(findBody(name)); }
btMultiBody* btHydroelasticModelLoader::findMultiBody(const char* name, int* linkIndex) const {
  return getMultiBody(findBody(name), linkIndex);
}
btTransform btHydroelasticModelLoader::getLinkWorldTransform(int index) const {
  const auto* body = m_impl->Body(index);
  return body ? hydro::bullet::ToBullet(m_impl->built->LinkPose(*body)) : btTransform::getIdentity();
}

btVector3 btHydroelasticModelLoader::getGravity() const { return m_impl->gravity; }
btScalar btHydroelasticModelLoader::getStepSize() const { return m_impl->step; }

void btHydroelasticModelLoader::applyJointDamping() const {
  if (m_impl->built) m_impl->built->ApplyJointDamping();
}
void btHydroelasticModelLoader::applyJointMotors(btScalar time, btScalar timeStep) const {
  if (m_impl->built) m_impl->built->ApplyJointMotors(time, timeStep);
}
