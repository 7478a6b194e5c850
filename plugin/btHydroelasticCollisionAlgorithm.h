#pragma once
// The narrowphase for pairs that involve a hydroelastic shape (DESIGN §3). It wraps the algorithm
// Bullet would have used for the pair: when the pair has pressure-field contact it computes the
// contact surface and writes its compliant points (pair_contact.h, PairPointQuadrature) into its
// own manifolds; otherwise (and for the point-contact materials of seed 003) it runs Bullet's
// algorithm.
//
// The object itself is two pointers: it always fits Bullet's collision-algorithm pool, whose
// elements are sized for Bullet's own algorithms (btPoolAllocator ignores the requested size in
// release builds, so an algorithm larger than an element would corrupt memory).
#include <BulletCollision/BroadphaseCollision/btCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btCollisionCreateFunc.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btTransform.h>

#include <vector>

class btHydroelasticWorldState;
namespace hydro {
struct ContactPoint;
namespace bullet {
struct ComputeScratch;
struct PatchState;
struct ShapeGeometry;
enum class PairContact : int;
}  // namespace bullet
}  // namespace hydro

class btHydroelasticCollisionAlgorithm : public btCollisionAlgorithm {
 public:
  btHydroelasticCollisionAlgorithm(const btCollisionAlgorithmConstructionInfo& ci,
                                   const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                                   btCollisionAlgorithm* fallback, bool closestPoints,
                                   btHydroelasticWorldState* worldState);
  ~btHydroelasticCollisionAlgorithm() override;

  void processCollision(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                        const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut) override;
  btScalar calculateTimeOfImpact(btCollisionObject* body0, btCollisionObject* body1,
                                 const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut) override;
  void getAllContactManifolds(btManifoldArray& manifoldArray) override;

  // For btHydroelasticCollisionDispatcher, which computes many pairs' contact side by side before
  // Bullet's own dispatch emits it pair by pair. prepareAhead reads the shapes' tags and builds
  // their geometries (not thread safe) and says whether the pair has a contact to compute ahead;
  // computeAhead is the pair-local part of processCollision (safe on any thread for distinct
  // pairs), whose result the pair's next processCollision emits; discardAhead drops a result no
  // processCollision took (a near callback that skipped the pair), so it is not emitted later.
  // *large: the pair's surface is clipped in pieces on several threads of its own, and it is not
  // certified apart.
  bool prepareAhead(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap, bool* large);
  void computeAhead(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                    const btDispatcherInfo& dispatchInfo);
  void discardAhead();

  // Wraps the create function Bullet would have used for a pair type. Pairs in which no shape is
  // tagged get Bullet's algorithm itself, untouched.
  // For the closest-points table (btCollisionWorld::contactTest and friends) set m_closestPoints:
  // patch points are then reported through the query's result instead of manifolds.
  struct CreateFunc : public btCollisionAlgorithmCreateFunc {
    btCollisionAlgorithmCreateFunc* m_fallback{nullptr};
    bool m_closestPoints{false};
    btHydroelasticWorldState* m_worldState{nullptr};  // the world's settings and statistics (required)
    btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                   const btCollisionObjectWrapper* body0Wrap,
                                                   const btCollisionObjectWrapper* body1Wrap) override;
  };

 private:
  using PairContact = hydro::bullet::PairContact;
  // The pair's contact at this step, up to what goes into manifolds: surfaces, points, the
  // separation certificate (processCollision before emission).
  PairContact ComputeContact(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                             const btDispatcherInfo& dispatchInfo);
  // The most solver points the pair's patch takes now (0: all).
  int MaxPoints() const;
  // The pair's point budget for `patch` (the last step's points, or the ones just computed) and
  // the bodies' velocities now: max_points (MaxPoints), or the world's turning budget while the
  // patch's friction turns across it (hydro/patch_slip.h,
  // btHydroelasticWorldState::setTurningMaxPatchPoints). Sets the state's friction_turns.
  int PointBudget(int max_points, bool turned_last_step, const std::vector<hydro::ContactPoint>& patch);
  // The state's points from the scratch's all_points (plugin/compute_scratch.h): reduced to
  // max_points (its merged_into then says where each went), or all of them; returns whether it
  // reduced.
  bool TakePoints(int max_points, hydro::bullet::ComputeScratch& scratch);
  void MeasureApproach(btScalar dt, double* depth, double* approach) const;
  double FractionToOverlap(const hydro::bullet::ShapeGeometry& g0, const btTransform& X_WS0,
                           const hydro::bullet::ShapeGeometry& g1, const btTransform& X_WS1, btScalar dt,
                           double overlap) const;
  double ClosingBound(btScalar dt, const btVector3& dhat) const;
  // Whether the pair's separation certificate still holds with these shapes at these poses, for
  // the motion of a step of dt.
  bool StillCertifiedApart(btScalar dt, const btCollisionShape* shape0, const btTransform& X_WS0,
                           const btCollisionShape* shape1, const btTransform& X_WS1) const;
  // The radius of a sphere about the shape's origin that holds it (Bullet's bounding sphere, or
  // for a box or sphere the same read directly): the certificate's check that the shape is
  // unchanged.
  static double BoundingRadius(const btCollisionShape* shape);
  // The same for several axes at once: ClosingBound(dt, axes[k]) into bounds[k].
  void ClosingBounds(btScalar dt, const btVector3* axes, int n, double* bounds) const;
  // Whether the state's points, mapped back from the poses ahead, press with less than half the
  // normal impulse the pair's points took at the last step, over a step of dt.
  bool SupportFallsShort(btScalar dt) const;
  // Maps the state's points, computed at the poses ahead (advanced by τ), back to the present
  // poses. `merged_now`: they were merged from the scratch's all_points (merged_into says how) there,
  // and each then takes the force its own points have at the present poses.
  void MapToPresentPoses(const btTransform& X_WS0, const btTransform& X_WS0_ahead, const btTransform& X_WS1,
                         const btTransform& X_WS1_ahead, btScalar tau, bool merged_now,
                         hydro::bullet::ComputeScratch& scratch);
  // Bullet's own contact for shapes that overlap with an empty patch (kept only if they truly
  // overlap), and its removal once a patch exists again.
  void RunFallbackForDeepOverlap(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                                 const btDispatcherInfo& dispatchInfo, btManifoldResult* resultOut);
  void ClearFallbackContact();
  void processPointContact(const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
                           btManifoldResult* resultOut);

  btCollisionAlgorithm* m_fallback;
  hydro::bullet::PatchState* m_state;  // null for closest-point queries (nothing persists)
};
