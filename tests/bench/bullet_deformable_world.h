// Bullet's own deformable world (btDeformableMultiBodyDynamicsWorld, libbullet 3.24, double
// precision) on tetrahedral meshes we supply, so the benchmarks can report Bullet's time per step
// and whether it stays stable on the same scenes as our FEM module (library
// `bullet_deformable_world`; `bullet_deformable_world_smoke` runs three example scenes).
//
// What is built, following Bullet's volumetric examples (examples/DeformableDemo/LargeDeformation
// and pybullet's VTK loader):
//  - each mesh becomes a btSoftBody: one node per vertex with the lumped mass ρ·V/4 of its tets,
//    the tets (reordered to positive volume), one link per tet edge and the boundary triangles
//    (those used by one tet only) wound outward; collisions SDF_RD | SDF_RDN (nodes against the
//    rigid shapes' sparse signed distance fields) and VF_DD (vertex–face against other meshes);
//  - btDeformableLinearElasticityForce (Bullet's linear *corotated* model) with the Lamé
//    parameters of E and ν and Rayleigh damping α, β (per body: see the .cc on why it is not added
//    through addForce), and btDeformableGravityForce;
//  - backward Euler (`setImplicit(true)`: one Newton step, Krylov solve) by default;
//  - boxes are btRigidBody + btBoxShape of mass 0: static, or kinematic moving at a constant
//    velocity; the "z = 0 plane" is a large static box whose top face is z = 0, because Bullet's
//    deformable contact evaluates a sparse SDF built only for convex shapes (a btStaticPlaneShape
//    gives distance 0 everywhere).
//
// Friction is Bullet's rule, the product: mesh–box contact uses friction(mesh)·friction(box) and
// mesh–mesh contact friction(meshA)·friction(meshB). To get a pair coefficient μ against boxes,
// give the mesh 1 and the box μ.
#ifndef HYDRO_TESTS_BENCH_BULLET_DEFORMABLE_WORLD_H_
#define HYDRO_TESTS_BENCH_BULLET_DEFORMABLE_WORLD_H_

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

class btDeformableMultiBodyDynamicsWorld;

namespace hydro {
namespace bench {

struct TetMeshInput {
  std::string name;
  std::vector<Eigen::Vector3d> vertices;  // world positions at the start, m
  std::vector<std::array<int, 4>> tets;   // either orientation
  double youngs_modulus_Pa;
  double poisson_ratio;
  double density_kg_per_m3;
  double friction;                    // Bullet's m_cfg.kDF; multiplied by the other side's (see above)
  double damping_beta = 0.01;         // s: stiffness-proportional Rayleigh damping
  double damping_alpha = 0;           // 1/s: mass-proportional Rayleigh damping (Bullet's default is 0.01)
  Eigen::Vector3d velocity{0, 0, 0};  // initial velocity of every node, m/s
};

struct BoxInput {
  Eigen::Vector3d half_extents;
  Eigen::Vector3d center;  // at t = 0
  double friction;
  Eigen::Vector3d velocity{0, 0, 0};  // static if zero, else kinematic moving at this velocity
};

// Bullet's knobs; the defaults are those of Bullet's volumetric FEM examples (LargeDeformation,
// Collide). What the modes do in 3.24 (tests/bench/bullet_deformable_world_smoke and trials):
//  - implicit + projection (default): elasticity stable at any dt without contact; rests on boxes;
//    but mesh–mesh contacts are detected and NOT enforced (a cube stacked on another sinks
//    through it), kinematic boxes sink into what they push (~40% of their travel), and stiff
//    bodies (E ≳ 1e7 Pa at ρ 2300, 0.1 m) blow up on contact at dt = 10–40 ms. With
//    split_impulse = false stiff bodies rest stably, but kinematic boxes then pass through.
//  - implicit + Lagrange multipliers (use_projection = false): bodies never move (frozen).
//  - explicit (+ Lagrange multipliers, as Bullet's PinchFriction): mesh–mesh contact works, but
//    elasticity is explicit: E = 1e5 needs dt ≲ 2 ms; stiff bodies go wrong while Bullet's velocity
//    clamps keep node speeds small — watch the volume ratios in the result.
struct BulletDeformableSettings {
  bool implicit = true;                        // false: Bullet's "explicit" scheme (elasticity explicit)
  bool use_projection = true;                  // contacts as velocity projections (else Lagrange multipliers)
  double collision_margin = 0.002;             // m: a node is in contact within this distance of a shape
  double sdf_voxel_size = 0.005;               // m: voxel of the rigid shapes' sparse SDF
  int solver_iterations = 100;                 // btContactSolverInfo::m_numIterations
  double deformable_erp = 0.1;                 // penetration recovery per step
  double deformable_max_error_reduction = 20;  // m/s cap of the recovery velocity
  bool split_impulse = true;
};

struct BulletDeformableScene {
  std::vector<TetMeshInput> deformables;
  std::vector<BoxInput> boxes;
  bool ground_plane = true;  // z = 0 (a static box below it)
  double ground_friction = 1.0;
  Eigen::Vector3d gravity{0, 0, -9.81};
  double dt;
  BulletDeformableSettings settings;
};

struct BulletDeformableResult {
  int steps = 0;                // steps taken (fewer than asked when it went unstable)
  double seconds_per_step = 0;  // wall time of stepSimulation only
  bool stable = true;
  std::string why_unstable;  // the first failure, empty when stable
  double max_speed = 0;      // largest node speed seen after any step, m/s
  double lowest_z = 0;       // lowest node z seen after any step (and at the start), m
  // Smallest and largest current/rest tet volume seen after any step. The criteria above miss
  // two failures of Bullet's: a body flattened or inverted (min <= 0) and an explosion hidden by
  // Bullet's own velocity clamps (max >> 1).
  double min_volume_ratio = 1;
  double max_volume_ratio = 1;
  std::vector<Eigen::Vector3d> final_centroids;  // mass-weighted, one per deformable
};

class BulletDeformableWorld {
 public:
  // Throws std::invalid_argument on a bad scene (naming the mesh or box).
  explicit BulletDeformableWorld(const BulletDeformableScene& scene);
  ~BulletDeformableWorld();
  BulletDeformableWorld(const BulletDeformableWorld&) = delete;
  BulletDeformableWorld& operator=(const BulletDeformableWorld&) = delete;

  // Moves the kinematic boxes to their pose at t + dt, then one stepSimulation(dt, 0, dt).
  void Step();
  // Steps `steps` times, checking after each step that every node position and velocity is finite,
  // every node speed < 100 m/s and, with the ground plane, no node below z = -0.05; stops at the
  // first failure. Can be called again to continue.
  BulletDeformableResult Run(int steps);
  // The check Run makes after each step: empty when fine, else the reason.
  std::string CheckStable() const;

  double time() const;  // simulated seconds
  int num_deformables() const;
  std::vector<Eigen::Vector3d> NodePositions(int deformable) const;
  std::vector<Eigen::Vector3d> NodeVelocities(int deformable) const;
  Eigen::Vector3d Centroid(int deformable) const;  // mass-weighted
  btDeformableMultiBodyDynamicsWorld* world();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench
}  // namespace hydro

#endif  // HYDRO_TESTS_BENCH_BULLET_DEFORMABLE_WORLD_H_
