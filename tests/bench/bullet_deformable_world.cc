#include "tests/bench/bullet_deformable_world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <BulletSoftBody/btDeformableBodySolver.h>
#include <BulletSoftBody/btDeformableGravityForce.h>
#include <BulletSoftBody/btDeformableLinearElasticityForce.h>
#include <BulletSoftBody/btDeformableMultiBodyConstraintSolver.h>
#include <BulletSoftBody/btDeformableMultiBodyDynamicsWorld.h>
#include <BulletSoftBody/btSoftBody.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <btBulletDynamicsCommon.h>
#include <Eigen/Geometry>

namespace hydro {
namespace bench {
namespace {

constexpr double kMaxSpeed = 100;        // m/s
constexpr double kLowestZ = -0.05;       // m, with the ground plane
constexpr double kGroundHalfWidth = 50;  // m
constexpr double kGroundHalfDepth = 5;   // m

btVector3 Bt(const Eigen::Vector3d& v) { return btVector3(v.x(), v.y(), v.z()); }
Eigen::Vector3d Eig(const btVector3& v) { return Eigen::Vector3d(v.x(), v.y(), v.z()); }

bool Finite(const btVector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

std::string Fmt(double x) {
  std::ostringstream s;
  s.precision(4);
  s << x;
  return s.str();
}

void Require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("BulletDeformableWorld: " + message);
}

// Boundary triangles of a tet mesh (each used by one tet only), wound so that their normal points
// away from the tet's fourth vertex, i.e. outward.
std::vector<std::array<int, 3>> BoundaryFaces(const std::vector<Eigen::Vector3d>& x,
                                              const std::vector<std::array<int, 4>>& tets) {
  std::map<std::array<int, 3>, std::pair<int, std::array<int, 3>>> faces;  // sorted → (count, wound)
  for (const auto& t : tets) {
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> tri = {t[(f + 1) % 4], t[(f + 2) % 4], t[(f + 3) % 4]};
      const Eigen::Vector3d n = (x[tri[1]] - x[tri[0]]).cross(x[tri[2]] - x[tri[0]]);
      if (n.dot(x[t[f]] - x[tri[0]]) > 0) std::swap(tri[1], tri[2]);
      std::array<int, 3> key = tri;
      std::sort(key.begin(), key.end());
      auto it = faces.find(key);
      if (it == faces.end())
        faces.emplace(key, std::make_pair(1, tri));
      else
        ++it->second.first;
    }
  }
  std::vector<std::array<int, 3>> boundary;
  for (const auto& [key, entry] : faces)
    if (entry.first == 1) boundary.push_back(entry.second);
  return boundary;
}

}  // namespace

struct BulletDeformableWorld::Impl {
  BulletDeformableScene scene;
  double time = 0;

  std::unique_ptr<btSoftBodyRigidBodyCollisionConfiguration> configuration;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::unique_ptr<btDbvtBroadphase> broadphase;
  std::unique_ptr<btDeformableBodySolver> deformable_solver;
  std::unique_ptr<btDeformableMultiBodyConstraintSolver> constraint_solver;
  std::unique_ptr<btDeformableMultiBodyDynamicsWorld> world;

  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> motion_states;
  std::vector<std::unique_ptr<btRigidBody>> rigid_bodies;
  std::vector<int> kinematic_box;  // index into scene.boxes of rigid_bodies[i], -1 for the ground
  std::vector<std::unique_ptr<btSoftBody>> soft_bodies;
  std::vector<std::vector<double>> rest_six_volumes;  // per body, per tet: 6·V at rest
  std::vector<std::unique_ptr<btDeformableLagrangianForce>> forces;
  btDeformableGravityForce* gravity = nullptr;  // one, shared by every body

  void AddBox(const Eigen::Vector3d& half_extents, const Eigen::Vector3d& center, double friction, bool kinematic,
              int box_index);
  void AddDeformable(const TetMeshInput& mesh);
  void MoveKinematicBoxes(double t);
  ~Impl();
};

BulletDeformableWorld::Impl::~Impl() {
  if (world) {
    for (auto& body : soft_bodies) world->removeSoftBody(body.get());
    for (auto& body : rigid_bodies) world->removeRigidBody(body.get());
  }
  world.reset();
  constraint_solver.reset();
  deformable_solver.reset();
  soft_bodies.clear();
  rigid_bodies.clear();
  forces.clear();
}

void BulletDeformableWorld::Impl::AddBox(const Eigen::Vector3d& half_extents, const Eigen::Vector3d& center,
                                         double friction, bool kinematic, int box_index) {
  auto shape = std::make_unique<btBoxShape>(Bt(half_extents));
  // btBoxShape keeps its half extents with a rounded margin inside them; Bullet's default 0.04 m
  // would round (or invert) the corners of boxes a few cm across.
  shape->setMargin(std::min(0.001, 0.25 * half_extents.minCoeff()));
  btTransform pose;
  pose.setIdentity();
  pose.setOrigin(Bt(center));
  auto motion = std::make_unique<btDefaultMotionState>(pose);
  btRigidBody::btRigidBodyConstructionInfo info(0, motion.get(), shape.get(), btVector3(0, 0, 0));
  info.m_friction = friction;
  auto body = std::make_unique<btRigidBody>(info);
  if (kinematic) {
    body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    body->setActivationState(DISABLE_DEACTIVATION);
    body->setLinearVelocity(Bt(scene.boxes[box_index].velocity));
  }
  world->addRigidBody(body.get());
  shapes.push_back(std::move(shape));
  motion_states.push_back(std::move(motion));
  rigid_bodies.push_back(std::move(body));
  kinematic_box.push_back(kinematic ? box_index : -1);
}

void BulletDeformableWorld::Impl::AddDeformable(const TetMeshInput& mesh) {
  const std::string who = "mesh '" + mesh.name + "'";
  const int n = static_cast<int>(mesh.vertices.size());
  Require(n >= 4 && !mesh.tets.empty(), who + ": needs vertices and tets");
  Require(mesh.youngs_modulus_Pa > 0 && std::isfinite(mesh.youngs_modulus_Pa), who + ": E must be > 0");
  Require(mesh.poisson_ratio > -1 && mesh.poisson_ratio < 0.5, who + ": Poisson ratio must be in (-1, 0.5)");
  Require(mesh.density_kg_per_m3 > 0 && std::isfinite(mesh.density_kg_per_m3), who + ": density must be > 0");
  Require(mesh.friction >= 0 && std::isfinite(mesh.friction), who + ": friction must be >= 0");
  Require(mesh.damping_alpha >= 0 && mesh.damping_beta >= 0, who + ": damping must be >= 0");
  for (const auto& v : mesh.vertices) Require(v.allFinite(), who + ": non-finite vertex");

  // Tets with positive volume (Bullet's Dm⁻¹ and element measure assume it), lumped masses.
  std::vector<std::array<int, 4>> tets = mesh.tets;
  std::vector<double> mass(n, 0.0);
  std::vector<double> six_volumes;
  for (size_t k = 0; k < tets.size(); ++k) {
    auto& t = tets[k];
    for (int i : t) Require(i >= 0 && i < n, who + ": tet " + std::to_string(k) + " has a vertex out of range");
    const auto& x = mesh.vertices;
    double six_v = (x[t[1]] - x[t[0]]).cross(x[t[2]] - x[t[0]]).dot(x[t[3]] - x[t[0]]);
    if (six_v < 0) {
      std::swap(t[2], t[3]);
      six_v = -six_v;
    }
    const double scale = std::max({(x[t[1]] - x[t[0]]).norm(), (x[t[2]] - x[t[0]]).norm(), (x[t[3]] - x[t[0]]).norm()});
    Require(six_v > 1e-12 * scale * scale * scale, who + ": tet " + std::to_string(k) + " is degenerate");
    for (int i : t) mass[i] += mesh.density_kg_per_m3 * six_v / 6 / 4;
    six_volumes.push_back(six_v);
  }
  for (int i = 0; i < n; ++i) Require(mass[i] > 0, who + ": vertex " + std::to_string(i) + " is in no tet");

  btSoftBodyWorldInfo& info = world->getWorldInfo();
  std::vector<btVector3> x(n);
  std::vector<btScalar> m(n);
  for (int i = 0; i < n; ++i) {
    x[i] = Bt(mesh.vertices[i]);
    m[i] = mass[i];
  }
  auto psb = std::make_unique<btSoftBody>(&info, n, x.data(), m.data());
  std::set<std::pair<int, int>> links;
  for (const auto& t : tets) {
    psb->appendTetra(t[0], t[1], t[2], t[3]);
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const std::pair<int, int> e(std::min(t[a], t[b]), std::max(t[a], t[b]));
        if (links.insert(e).second) psb->appendLink(e.first, e.second, nullptr, false);
      }
  }
  for (const auto& f : BoundaryFaces(mesh.vertices, tets)) psb->appendFace(f[0], f[1], f[2]);
  for (int i = 0; i < n; ++i) {
    psb->m_nodes[i].index = i;
    psb->m_nodes[i].m_v = Bt(mesh.velocity);
  }
  psb->initializeDmInverse();
  btSoftBody::TetraScratch rest;  // undeformed; Bullet refills these every step
  rest.m_F.setIdentity();
  rest.m_trace = 3;
  rest.m_J = 1;
  rest.m_cofF.setIdentity();
  rest.m_corotation.setIdentity();
  psb->m_tetraScratches.resize(psb->m_tetras.size(), rest);
  psb->m_tetraScratchesTn.resize(psb->m_tetras.size(), rest);

  const BulletDeformableSettings& s = scene.settings;
  psb->getCollisionShape()->setMargin(s.collision_margin);
  psb->m_cfg.kKHR = 1;  // contact hardness against kinematic and static objects
  psb->m_cfg.kCHR = 1;  // against dynamic rigid bodies
  psb->m_cfg.kDF = mesh.friction;
  psb->m_cfg.collisions =
      btSoftBody::fCollision::SDF_RD | btSoftBody::fCollision::SDF_RDN | btSoftBody::fCollision::VF_DD;
  psb->m_sleepingThreshold = 0;
  psb->setActivationState(DISABLE_DEACTIVATION);
  psb->initializeFaceTree();
  world->addSoftBody(psb.get());

  // Bullet's world merges forces by type: addForce(psb, f) for a second body with a force of a
  // type already present adds the body to the *first* force (with the first body's E, ν and
  // damping). So elasticity is added to the solver's force list directly, one force per body, as
  // addForce does for the first one.
  const double E = mesh.youngs_modulus_Pa, nu = mesh.poisson_ratio;
  const double mu = E / (2 * (1 + nu)), lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  auto elasticity =
      std::make_unique<btDeformableLinearElasticityForce>(mu, lambda, mesh.damping_alpha, mesh.damping_beta);
  elasticity->addSoftBody(psb.get());
  elasticity->setIndices(deformable_solver->getIndices());
  deformable_solver->getLagrangianForceArray()->push_back(elasticity.get());
  forces.push_back(std::move(elasticity));

  // Gravity is the same for every body, so the merge is harmless. Always add it, zero or not:
  // upstream's implicit branch (btDeformableBackwardEulerObjective::applyExplicitForce) takes the
  // gravity vector from this force only, leaving it uninitialized without one.
  if (!gravity) {
    auto force = std::make_unique<btDeformableGravityForce>(Bt(scene.gravity));
    gravity = force.get();
    forces.push_back(std::move(force));
  }
  world->addForce(psb.get(), gravity);
  soft_bodies.push_back(std::move(psb));
  rest_six_volumes.push_back(std::move(six_volumes));
}

void BulletDeformableWorld::Impl::MoveKinematicBoxes(double t) {
  for (size_t i = 0; i < rigid_bodies.size(); ++i) {
    if (kinematic_box[i] < 0) continue;
    const BoxInput& box = scene.boxes[kinematic_box[i]];
    btTransform pose;
    pose.setIdentity();
    pose.setOrigin(Bt(box.center + t * box.velocity));
    // Bullet takes a kinematic body's pose from its motion state at the start of stepSimulation
    // and its velocity from the change of pose over the step (saveKinematicState).
    motion_states[i]->setWorldTransform(pose);
    rigid_bodies[i]->setLinearVelocity(Bt(box.velocity));
    rigid_bodies[i]->setAngularVelocity(btVector3(0, 0, 0));
  }
}

BulletDeformableWorld::BulletDeformableWorld(const BulletDeformableScene& scene) : impl_(std::make_unique<Impl>()) {
  Require(scene.dt > 0 && std::isfinite(scene.dt), "dt must be > 0");
  Require(scene.gravity.allFinite(), "gravity must be finite");
  const BulletDeformableSettings& s = scene.settings;
  Require(s.collision_margin > 0 && s.sdf_voxel_size > 0 && s.solver_iterations > 0, "bad settings");
  for (size_t b = 0; b < scene.boxes.size(); ++b) {
    const BoxInput& box = scene.boxes[b];
    Require((box.half_extents.array() > 0).all() && box.half_extents.allFinite() && box.center.allFinite() &&
                box.velocity.allFinite() && box.friction >= 0,
            "box " + std::to_string(b) + ": needs positive half extents, finite pose and velocity, friction >= 0");
  }
  Impl& w = *impl_;
  w.scene = scene;
  w.configuration = std::make_unique<btSoftBodyRigidBodyCollisionConfiguration>();
  w.dispatcher = std::make_unique<btCollisionDispatcher>(w.configuration.get());
  w.broadphase = std::make_unique<btDbvtBroadphase>();
  w.deformable_solver = std::make_unique<btDeformableBodySolver>();
  w.constraint_solver = std::make_unique<btDeformableMultiBodyConstraintSolver>();
  w.constraint_solver->setDeformableSolver(w.deformable_solver.get());
  w.world = std::make_unique<btDeformableMultiBodyDynamicsWorld>(w.dispatcher.get(), w.broadphase.get(),
                                                                 w.constraint_solver.get(), w.configuration.get(),
                                                                 w.deformable_solver.get());
  w.world->setGravity(Bt(scene.gravity));
  btSoftBodyWorldInfo& info = w.world->getWorldInfo();
  info.m_gravity = Bt(scene.gravity);
  info.m_sparsesdf.setDefaultVoxelsz(s.sdf_voxel_size);
  info.m_sparsesdf.Reset();

  w.world->setImplicit(s.implicit);
  w.world->setLineSearch(false);
  w.world->setUseProjection(s.use_projection);
  btContactSolverInfo& solver = w.world->getSolverInfo();
  solver.m_deformable_erp = s.deformable_erp;
  solver.m_deformable_maxErrorReduction = s.deformable_max_error_reduction;
  solver.m_leastSquaresResidualThreshold = 1e-3;
  solver.m_splitImpulse = s.split_impulse;
  solver.m_numIterations = s.solver_iterations;

  if (scene.ground_plane)
    w.AddBox(Eigen::Vector3d(kGroundHalfWidth, kGroundHalfWidth, kGroundHalfDepth),
             Eigen::Vector3d(0, 0, -kGroundHalfDepth), scene.ground_friction, false, -1);
  for (size_t b = 0; b < scene.boxes.size(); ++b)
    w.AddBox(scene.boxes[b].half_extents, scene.boxes[b].center, scene.boxes[b].friction,
             !scene.boxes[b].velocity.isZero(), static_cast<int>(b));
  for (const TetMeshInput& mesh : scene.deformables) w.AddDeformable(mesh);
}

BulletDeformableWorld::~BulletDeformableWorld() = default;

void BulletDeformableWorld::Step() {
  Impl& w = *impl_;
  w.MoveKinematicBoxes(w.time + w.scene.dt);
  w.world->stepSimulation(w.scene.dt, 0, w.scene.dt);
  w.time += w.scene.dt;
}

std::string BulletDeformableWorld::CheckStable() const {
  const Impl& w = *impl_;
  for (size_t b = 0; b < w.soft_bodies.size(); ++b) {
    const btSoftBody& psb = *w.soft_bodies[b];
    const std::string who = "mesh '" + w.scene.deformables[b].name + "' node ";
    for (int i = 0; i < psb.m_nodes.size(); ++i) {
      const btSoftBody::Node& node = psb.m_nodes[i];
      if (!Finite(node.m_x)) return who + std::to_string(i) + ": position not finite";
      if (!Finite(node.m_v)) return who + std::to_string(i) + ": velocity not finite";
      const double speed = node.m_v.length();
      if (speed >= kMaxSpeed) return who + std::to_string(i) + ": speed " + Fmt(speed) + " m/s >= 100";
      if (w.scene.ground_plane && node.m_x.z() < kLowestZ)
        return who + std::to_string(i) + ": z = " + Fmt(node.m_x.z()) + " m below -0.05 (fell through the ground)";
    }
  }
  return "";
}

BulletDeformableResult BulletDeformableWorld::Run(int steps) {
  Impl& w = *impl_;
  BulletDeformableResult result;
  result.lowest_z = std::numeric_limits<double>::infinity();
  auto observe = [&]() {
    for (size_t b = 0; b < w.soft_bodies.size(); ++b) {
      const btSoftBody* psb = w.soft_bodies[b].get();
      for (int i = 0; i < psb->m_nodes.size(); ++i) {
        const btSoftBody::Node& node = psb->m_nodes[i];
        if (std::isfinite(node.m_x.z())) result.lowest_z = std::min(result.lowest_z, double(node.m_x.z()));
        const double speed = node.m_v.length();
        if (std::isfinite(speed)) result.max_speed = std::max(result.max_speed, speed);
      }
      for (int j = 0; j < psb->m_tetras.size(); ++j) {
        const btSoftBody::Tetra& t = psb->m_tetras[j];
        const btVector3& x0 = t.m_n[0]->m_x;
        const double ratio =
            (t.m_n[1]->m_x - x0).cross(t.m_n[2]->m_x - x0).dot(t.m_n[3]->m_x - x0) / w.rest_six_volumes[b][j];
        if (!std::isfinite(ratio)) continue;
        result.min_volume_ratio = std::min(result.min_volume_ratio, ratio);
        result.max_volume_ratio = std::max(result.max_volume_ratio, ratio);
      }
    }
  };
  observe();
  double seconds = 0;
  for (int k = 0; k < steps; ++k) {
    w.MoveKinematicBoxes(w.time + w.scene.dt);  // as Step(), timing stepSimulation alone
    const auto start = std::chrono::steady_clock::now();
    w.world->stepSimulation(w.scene.dt, 0, w.scene.dt);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    w.time += w.scene.dt;
    ++result.steps;
    observe();
    const std::string why = CheckStable();
    if (!why.empty()) {
      result.stable = false;
      result.why_unstable = "step " + std::to_string(result.steps) + " (t = " + Fmt(w.time) + " s): " + why;
      break;
    }
  }
  result.seconds_per_step = result.steps > 0 ? seconds / result.steps : 0;
  for (int b = 0; b < num_deformables(); ++b) result.final_centroids.push_back(Centroid(b));
  return result;
}

double BulletDeformableWorld::time() const { return impl_->time; }

int BulletDeformableWorld::num_deformables() const { return static_cast<int>(impl_->soft_bodies.size()); }

std::vector<Eigen::Vector3d> BulletDeformableWorld::NodePositions(int deformable) const {
  const btSoftBody& psb = *impl_->soft_bodies.at(deformable);
  std::vector<Eigen::Vector3d> x;
  for (int i = 0; i < psb.m_nodes.size(); ++i) x.push_back(Eig(psb.m_nodes[i].m_x));
  return x;
}

std::vector<Eigen::Vector3d> BulletDeformableWorld::NodeVelocities(int deformable) const {
  const btSoftBody& psb = *impl_->soft_bodies.at(deformable);
  std::vector<Eigen::Vector3d> v;
  for (int i = 0; i < psb.m_nodes.size(); ++i) v.push_back(Eig(psb.m_nodes[i].m_v));
  return v;
}

Eigen::Vector3d BulletDeformableWorld::Centroid(int deformable) const {
  const btSoftBody& psb = *impl_->soft_bodies.at(deformable);
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  double mass = 0;
  for (int i = 0; i < psb.m_nodes.size(); ++i) {
    const double m = psb.m_nodes[i].m_im > 0 ? 1 / psb.m_nodes[i].m_im : 0;
    sum += m * Eig(psb.m_nodes[i].m_x);
    mass += m;
  }
  return mass > 0 ? Eigen::Vector3d(sum / mass) : sum;
}

btDeformableMultiBodyDynamicsWorld* BulletDeformableWorld::world() { return impl_->world.get(); }

}  // namespace bench
}  // namespace hydro
