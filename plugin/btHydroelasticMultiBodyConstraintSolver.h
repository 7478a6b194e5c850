#pragma once
// Bullet's Featherstone solver with every contact patch solved as one block, for links of
// multibodies as for rigid bodies (DESIGN §3).
//
//   btHydroelasticMultiBodyConstraintSolver solver;   // was: btMultiBodyConstraintSolver
//   btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
//
// As btHydroelasticConstraintSolver does for rigid bodies: at every visit of Bullet's Gauss–Seidel
// sweep, all the group's patches are solved together (hydro/patch_problem.h: Newton on the bodies'
// twists, near-rigid patches softened as a whole), between Bullet's own rows for joints, limits,
// motors and ordinary contacts, which it leaves unchanged. A link enters the problem as a body
// whose mobility is its articulated one, G = J·M⁻¹·Jᵀ for the twist J·q̇ of the link about its
// centre of mass (Bullet's calcAccelerationDeltasMultiDof, six solves a link a step); the
// velocity change the problem gives the link's twist goes back to the multibody's generalized
// velocities as Δq̇ = M⁻¹·Jᵀ·G⁺·ΔV. Each link's mobility is exact for that link alone: when
// patches touch two links of one multibody (a gripper's fingers), the block is solved a few
// Newton steps a sweep, and the sweeps couple the links, as Gauss–Seidel couples Bullet's rows.
//
// Under btMultiBodyConstraintSolver a patch's points would be Bullet rows, one at a time: a
// Featherstone box resting on the ground at 60 Hz kept jittering at 3 cm/s (1e6–1e8 Pa) and
// 19 cm/s (1e10 Pa) with 10 iterations, and needed 200 to rest.
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>

#include <memory>

class btHydroelasticMultiBodyConstraintSolver : public btMultiBodyConstraintSolver {
 public:
  BT_DECLARE_ALIGNED_ALLOCATOR();

  btHydroelasticMultiBodyConstraintSolver();
  ~btHydroelasticMultiBodyConstraintSolver() override;

  // As btHydroelasticConstraintSolver's: sweeps at least this many times (default 10) over groups
  // with patches and other constraints; near-rigid threshold β (default 1); stiction
  // regularization σ (default 1e-3). A bad value is refused with hydro::InvalidInput naming the
  // setter, as there.
  void setMinPatchSweeps(int sweeps);
  void setNearRigidThreshold(btScalar beta);
  void setStictionRegularization(btScalar sigma);
  int minPatchSweeps() const { return m_minPatchSweeps; }
  btScalar nearRigidThreshold() const { return m_nearRigidBeta; }
  btScalar stictionRegularization() const { return m_stictionSigma; }

  // Newton iterations, factorizations of Newton's matrix (the other iterations reused one), and
  // patches with a multibody link, in the last step.
  int lastNewtonIterations() const { return m_lastNewtonIterations; }
  int lastFactorizations() const { return m_lastFactorizations; }
  int lastLinkPatches() const { return m_lastLinkPatches; }

  void prepareSolve(int numBodies, int numManifolds) override;

 protected:
  btScalar solveGroupCacheFriendlySetup(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifoldPtr,
                                        int numManifolds, btTypedConstraint** constraints, int numConstraints,
                                        const btContactSolverInfo& infoGlobal, btIDebugDraw* debugDrawer) override;
  btScalar solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies,
                                btPersistentManifold** manifoldPtr, int numManifolds, btTypedConstraint** constraints,
                                int numConstraints, const btContactSolverInfo& infoGlobal,
                                btIDebugDraw* debugDrawer) override;
  btScalar solveGroupCacheFriendlyFinish(btCollisionObject** bodies, int numBodies,
                                         const btContactSolverInfo& infoGlobal) override;

 private:
  struct Block;  // the group's patches, their bodies and problem (Eigen inside)
  bool setUpPatches(const btContactSolverInfo& infoGlobal);  // from Block::manifoldStates
  void solvePatches(bool alone, btScalar* residual);

  std::unique_ptr<Block> m_block;
  btAlignedObjectArray<btPersistentManifold*> m_bulletManifolds;
  unsigned m_groupSerial{0};
  int m_minPatchSweeps{10};
  btScalar m_nearRigidBeta{1};
  btScalar m_stictionSigma{1e-3};  // SAP's (patch_problem.h says why)
  int m_lastNewtonIterations{0};
  int m_lastFactorizations{0};
  int m_lastLinkPatches{0};
};
