#pragma once
// Bullet's sequential-impulse solver with every contact patch solved as one block (DESIGN §3).
//
//   btHydroelasticConstraintSolver solver;          // was: btSequentialImpulseConstraintSolver
//   btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
//
// Bullet's projected Gauss–Seidel solves one row at a time. A patch's points are hundreds of stiff
// rows on the same two bodies: solved one at a time they do not converge in any affordable number
// of sweeps, and a contact stiffer than the step resolves (ω·δt ≫ 1, a 1 GPa coin, a 1e8 Pa box at
// 60 Hz) turns the leftover into energy. Here the patches of each group of bodies Bullet solves
// together (an island) are one block of the Gauss–Seidel sweep: at every visit all their points
// are solved together, exactly, for the bodies' velocities (hydro/patch_problem.h: Newton on the
// bodies' twists, an iteration linear in the points, near-rigid points regularized as SAP does),
// between Bullet's own rows for joints and ordinary contacts, which this solver leaves to Bullet
// unchanged. An island with patches only is solved once, to convergence.
//
// What it needs from btContactSolverInfo: only m_timeStep and m_numIterations. Patches are solved
// for at least minPatchSweeps() sweeps whatever m_numIterations is, and are unaffected by split
// impulse, friction modes, warm-starting settings, ERP and CFM: programs that set those after
// creating the world change Bullet's rows, not the patches.
//
// Pairs whose patch involves a multibody link are left to Bullet's rows here (their points carry the
// compliant point law as stiffness and damping), as are all patches under any other solver; in a
// btMultiBodyDynamicsWorld use btHydroelasticMultiBodyConstraintSolver, which solves them as blocks.
#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>

#include <memory>
#include <vector>

namespace hydro {
namespace bullet {
struct PatchState;
}
class PatchProblem;
}  // namespace hydro

class btHydroelasticConstraintSolver : public btSequentialImpulseConstraintSolver {
 public:
  BT_DECLARE_ALIGNED_ALLOCATOR();

  btHydroelasticConstraintSolver();
  ~btHydroelasticConstraintSolver() override;

  // Each setter refuses a bad value (below: sweeps < 0; β negative or not finite; σ ≤ 0 or not
  // finite) with hydro::InvalidInput naming the setter, and the solver keeps its setting.
  //
  // Sweeps at least this many times a step (default 10) over islands with patches and other
  // constraints, even when the program asks Bullet for fewer iterations.
  void setMinPatchSweeps(int sweeps);
  int minPatchSweeps() const { return m_minPatchSweeps; }

  // Near-rigid threshold β (after Castro et al. 2022; default 1): a patch stiffer than a period of
  // β·δt/4 for the inverse mass it sees at its centre of stiffness is softened, as a whole, to that
  // period. 0 turns the regime off. Measured at 60 Hz with β = 1: a stack of ten 10 cm boxes at
  // 1e9 Pa settles 0.43 mm; a 3×3×3 block of 0.2 m boxes lands and rests at 1e6–1e10 Pa.
  void setNearRigidThreshold(btScalar beta);
  btScalar nearRigidThreshold() const { return m_nearRigidBeta; }
  // Stiction regularization σ (default 1e-3, SAP's): a stuck patch creeps at σ times the velocity
  // change its friction impulse makes in a step, whatever its number of points (12 µm in 2 s for a
  // block on a slope at 1 ms). Smaller σ creeps less but makes stuck patches stiffer
  // than near-rigid contact, and Newton slower: the 1,000-box pile at 60 Hz takes 2.6 times as long
  // a step at 1e-4; a 140-box pyramid 10–15 iterations a step at 1e-4, 30–36 at 1e-5.
  void setStictionRegularization(btScalar sigma);
  btScalar stictionRegularization() const { return m_stictionSigma; }

  // Points of the last step's patches that were in the near-rigid regime, Newton iterations, and
  // factorizations of Newton's matrix (the other iterations reused one: a pile at rest, none).
  int lastNearRigidPoints() const { return m_lastNearRigidPoints; }
  int lastNewtonIterations() const { return m_lastNewtonIterations; }
  int lastFactorizations() const { return m_lastFactorizations; }
  // Independent problems the last step's patches were solved as: patches that touch through
  // moving bodies form one, summed over Bullet's island groups.
  int lastPatchProblems() const { return m_lastPatchProblems; }

  void prepareSolve(int numBodies, int numManifolds) override;
  // Off by default: when on, the time spent in solveGroup (Bullet's rows and the patches) is summed
  // into solveSeconds().
  void setSolveTiming(bool on) { m_solveTiming = on; }
  double solveSeconds() const { return m_solveSeconds; }
  void resetSolveSeconds() { m_solveSeconds = 0; }

  // Bullet's solveGroup, timed when solve timing is on.
  btScalar solveGroup(btCollisionObject** bodies, int numBodies, btPersistentManifold** manifold, int numManifolds,
                      btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info,
                      btIDebugDraw* debugDrawer, btDispatcher* dispatcher) override;

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
  struct Patch {
    hydro::bullet::PatchState* state{nullptr};
    int solverBodyA{-1}, solverBodyB{-1};
    int component{-1};         // which problem
    int bodyA{-1}, bodyB{-1};  // in that problem
    int index{-1};             // of the patch in that problem
    int listed{-1};            // its place in Bullet's manifold list (SolvedBefore's ties)
  };
  // The patches of a group that touch one another through moving bodies: one problem. Bullet's
  // island joins bodies whose bounding boxes overlap (a pile's neighbours 1 cm apart), so a group
  // holds many independent problems; solved apart, each stops when it has converged and factorizes
  // its own small matrix (BasicDemo at rest: 25 columns of 5 boxes, not one of 125).
  struct Component {
    hydro::PatchProblem* problem{nullptr};  // one of the workspace's, sized for it (assignProblems)
    std::vector<int> solverBodyOfProblemBody;
    bool settled{false};
  };
  void setUpPatches(const btContactSolverInfo& infoGlobal);
  // Gives each component a kept problem, one that last held as many moving bodies where there is
  // one: an island that changes size from step to step (bodies lifting off and landing) then finds
  // its buffers sized, and the step allocates nothing.
  void assignProblems();
  // Whether a solver body moves under impulses (a fixed or kinematic body, the ground, does not).
  bool moves(int solverBody) const;
  // Numbers the patches' components (Patch::component), in the order of their first patch.
  int findComponents();
  void solvePatches(bool alone, btScalar* residual);

  std::vector<Patch> m_patches;                // this group's
  std::vector<int> m_problemBodyOfSolverBody;  // scratch: -1 where a solver body is not in the problem being built
  std::vector<int> m_componentParent;          // scratch: union–find over solver bodies
  std::vector<Component> m_components;         // this group's (kept, with their buffers, across groups)
  struct Workspace;                            // buffers a step reuses (the .cc's), so that it allocates nothing
  std::unique_ptr<Workspace> m_work;
  int m_numComponents{0};
  btAlignedObjectArray<btPersistentManifold*> m_bulletManifolds;
  unsigned m_groupSerial{0};
  int m_minPatchSweeps{10};
  bool m_solveTiming{false};
  double m_solveSeconds{0};
  btScalar m_nearRigidBeta{1};
  btScalar m_stictionSigma{1e-3};  // SAP's (patch_problem.h says why)
  int m_lastNearRigidPoints{0};
  int m_lastNewtonIterations{0};
  int m_lastFactorizations{0};
  int m_lastPatchProblems{0};
};
