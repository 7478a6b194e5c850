#include "plugin/btHydroelasticCollisionAlgorithm.h"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionDispatch/btSphereSphereCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <chrono>
#include <cmath>
#include <new>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_geometry.h"
#include "adapters/shape_registry.h"
#include "hydro/buffers.h"
#include "hydro/contact_material.h"
#include "hydro/patch_slip.h"
#include "hydro/point_reduction.h"
#include "plugin/btHydroelasticConstraintSolver.h"
#include "plugin/btHydroelasticWorldState.h"
#include "plugin/compute_scratch.h"
#include "plugin/free_motion.h"
#include "plugin/manifold_emitter.h"
#include "plugin/pair_contact.h"
#include "plugin/patch_registry.h"

using hydro::bullet::PatchState;

using hydro::bullet::ComputeScratch;
using hydro::bullet::ShapeRegistry;

static_assert(sizeof(btHydroelasticCollisionAlgorithm) <= sizeof(btSphereSphereCollisionAlgorithm),
              "must fit the smallest collision-algorithm pool element Bullet configures");

btHydroelasticCollisionAlgorithm::btHydroelasticCollisionAlgorithm(const btCollisionAlgorithmConstructionInfo& ci,
                                                                   const btCollisionObjectWrapper* body0Wrap,
                                                                   const btCollisionObjectWrapper* body1Wrap,
                                                                   btCollisionAlgorithm* fallback, bool closestPoints,
                                                                   btHydroelasticWorldState* worldState)
    : btCollisionAlgorithm(ci), m_fallback(fallback), m_state(new PatchState) {
  m_state->dispatcher = ci.m_dispatcher1;
  m_state->world = worldState;
  m_state->body0 = body0Wrap->getCollisionObject();
  m_state->body1 = body1Wrap->getCollisionObject();
  m_state->child0 = body0Wrap->m_index;
  m_state->child1 = body1Wrap->m_index;
  m_state->closest_points = closestPoints;
  if (!closestPoints) hydro::bullet::PatchRegistry::Instance().Add(m_state);
}

btHydroelasticCollisionAlgorithm::~btHydroelasticCollisionAlgorithm() {
  if (!m_state->closest_points) hydro::bullet::PatchRegistry::Instance().Remove(m_state);
  hydro::bullet::EndPatch(m_state);
  hydro::bullet::ReleaseManifolds(m_state);
  delete m_state;
  if (m_fallback) {
    m_fallback->~btCollisionAlgorithm();
    m_dispatcher->freeCollisionAlgorithm(m_fallback);
  }
}

void btHydroelasticCollisionAlgorithm::processCollision(const btCollisionObjectWrapper* body0Wrap,
                                                        const btCollisionObjectWrapper* body1Wrap,
                                                        const btDispatcherInfo& dispatchInfo,
                                                        btManifoldResult* resultOut) {
  const btCollisionShape* shape0 = body0Wrap->getCollisionShape();
  const btCollisionShape* shape1 = body1Wrap->getCollisionShape();
  // A compound meets the other shape child by child through Bullet's compound algorithm (our
  // fallback), which dispatches every child pair back to this plugin.
  const bool compound = shape0->isCompound() || shape1->isCompound();
  hydro::bullet::ShapePairLookup& shapes = m_state->shapes;
  if (!compound) shapes.Update(shape0, shape1);
  if (!compound && shapes.compliant()) {
    btHydroelasticWorldState& world = *m_state->world;
    const bool timed = world.getStatsTiming();
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    // Computed ahead by btHydroelasticCollisionDispatcher for this dispatch, or now.
    const PairContact contact =
        m_state->computed_ahead ? m_state->contact_ahead : ComputeContact(body0Wrap, body1Wrap, dispatchInfo);
    const double seconds_ahead = m_state->computed_ahead ? m_state->seconds_ahead : 0.0;
    m_state->computed_ahead = false;
    if (!m_state->closest_points) m_state->NoteIdleTime(dispatchInfo.m_timeStep);
    world.recordSurfaces(m_state->surfaces_computed, m_state->surfaces_reused);
    auto elapsed = [&] {
      return timed ? seconds_ahead + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                   : 0.0;
    };
    if (contact == PairContact::kCertifiedApart) {
      if (m_state->fallback_contact) ClearFallbackContact();
      hydro::bullet::EmitPoints(m_state);
      world.recordPairStep(elapsed(), m_state->num_points_emitted, false);
      return;
    }
    const bool apart = contact == PairContact::kApart;
    if (contact != PairContact::kNoPatch) {
      const hydro::bullet::ShapeGeometry& g0 = *shapes.geometry(0);
      const hydro::bullet::ShapeGeometry& g1 = *shapes.geometry(1);
      if (m_state->closest_points) {
        // A query: report each solver point through the caller's result, normal on body1.
        for (const hydro::ContactPoint& point : m_state->points)
          resultOut->addContactPoint(hydro::bullet::ToBullet(point.nhat_BA_W), hydro::bullet::ToBullet(point.p_WC),
                                     point.phi0_m);
        return;
      }
      // Queries above report the true depths; the solver gets them bounded.
      hydro::bullet::LimitRecoveryDepth(hydro::bullet::SpeculativeOverlapLimit(g0, g1), &m_state->points);
      m_state->combined_friction = world.combinedFriction(m_state->body0, m_state->body1);
      m_state->combined_dissipation_s_per_m = hydro::CombineDissipationByModulus(g0.modulus_Pa, g0.dissipation_s_per_m,
                                                                                 g1.modulus_Pa, g1.dissipation_s_per_m);
      m_state->time_step = dispatchInfo.m_timeStep;
      // Shapes can overlap with an empty patch: a compliant body pushed wholly inside a rigid one
      // (a rigid shape is a surface only), or overlap deeper than the fields reach. Bullet's own
      // contact then pushes them apart, as stock Bullet would; it stands down once a patch exists.
      if (m_state->points.empty() && !apart)
        RunFallbackForDeepOverlap(body0Wrap, body1Wrap, dispatchInfo, resultOut);
      else if (m_state->fallback_contact)
        ClearFallbackContact();
      hydro::bullet::EmitPoints(m_state);
      if (m_state->friction_turns && !m_state->points.empty()) world.recordTurningPatch();
      world.recordPairStep(elapsed(), m_state->num_points_emitted, !m_state->points.empty());
      return;
    }
  }
  // No patch: Bullet's own contact for this pair (and nothing left over from earlier patches).
  if (!m_state->manifolds.empty()) {
    m_state->MutableSurface()->Clear();
    m_state->points.clear();
    m_state->points_on_B.clear();
    hydro::bullet::EmitPoints(m_state);
  }
  if (m_fallback) {
    m_fallback->processCollision(body0Wrap, body1Wrap, dispatchInfo, resultOut);
    processPointContact(body0Wrap, body1Wrap, resultOut);
  }
}

bool btHydroelasticCollisionAlgorithm::prepareAhead(const btCollisionObjectWrapper* body0Wrap,
                                                    const btCollisionObjectWrapper* body1Wrap, bool* large) {
  m_state->computed_ahead = false;
  const btCollisionShape* shape0 = body0Wrap->getCollisionShape();
  const btCollisionShape* shape1 = body1Wrap->getCollisionShape();
  if (m_state->closest_points || shape0->isCompound() || shape1->isCompound()) return false;
  hydro::bullet::ShapePairLookup& shapes = m_state->shapes;
  shapes.Update(shape0, shape1);
  if (!shapes.compliant()) return false;
  // A pair certified apart at the last step takes a bound check, whatever its meshes.
  *large = !m_state->separation.valid() && hydro::bullet::SplitsInPieces(*shapes.geometry(0), *shapes.geometry(1));
  return true;
}

void btHydroelasticCollisionAlgorithm::computeAhead(const btCollisionObjectWrapper* body0Wrap,
                                                    const btCollisionObjectWrapper* body1Wrap,
                                                    const btDispatcherInfo& dispatchInfo) {
  const bool timed = m_state->world->getStatsTiming();
  const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  m_state->contact_ahead = ComputeContact(body0Wrap, body1Wrap, dispatchInfo);
  m_state->seconds_ahead =
      timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() : 0.0;
  m_state->computed_ahead = true;
}

void btHydroelasticCollisionAlgorithm::discardAhead() { m_state->computed_ahead = false; }

btHydroelasticCollisionAlgorithm::PairContact btHydroelasticCollisionAlgorithm::ComputeContact(
    const btCollisionObjectWrapper* body0Wrap, const btCollisionObjectWrapper* body1Wrap,
    const btDispatcherInfo& dispatchInfo) {
  // Everything here is the pair's own (its state, its shapes' geometries, the bodies' poses and
  // velocities and the world's settings, read only; its statistics are counted in the state, and
  // processCollision adds them): btHydroelasticCollisionDispatcher
  // runs it for many pairs side by side. What touches the dispatcher (manifolds, Bullet's own
  // algorithm) is processCollision's, after it.
  const btCollisionShape* shape0 = body0Wrap->getCollisionShape();
  const btCollisionShape* shape1 = body1Wrap->getCollisionShape();
  hydro::bullet::ShapePairLookup& shapes = m_state->shapes;
  btHydroelasticWorldState& world = *m_state->world;
  const btScalar dt = dispatchInfo.m_timeStep > 0 ? dispatchInfo.m_timeStep : btScalar(0);
  const btTransform& X_WS0 = body0Wrap->getWorldTransform();
  const btTransform& X_WS1 = body1Wrap->getWorldTransform();
  hydro::bullet::HarvestWarmStart(m_state);
  m_state->surfaces_computed = m_state->surfaces_reused = 0;
  bool patch = false;
  // A pair found apart at an earlier step that cannot have closed its gap since, nor close it
  // in this step, is still apart: no surface, no test (plugin/separation_certificate.h).
  if (m_state->separation.valid()) {
    if (dt > 0 && StillCertifiedApart(dt, shape0, X_WS0, shape1, X_WS1)) {
      m_state->pressed_in_ahead = false;
      m_state->time_step = dispatchInfo.m_timeStep;
      return PairContact::kCertifiedApart;
    }
    m_state->separation.Clear();
  }
  const std::shared_ptr<const hydro::bullet::ShapeGeometry>& g0 = shapes.geometry(0);
  const std::shared_ptr<const hydro::bullet::ShapeGeometry>& g1 = shapes.geometry(1);
  // The surface and its points at the given poses; false when the pair has no patch contact.
  // A pair whose relative pose has barely changed since its last surface keeps that surface
  // (plugin/surface_reuse.h).
  const bool reuse = world.getSurfaceReuse();
  // The points come reduced when the solver takes them so (TakePoints), and a kept surface
  // keeps them reduced: it is not reused once the pair's point budget has changed. The budget
  // grows while the patch's friction turns across it (PointBudget), judged from the last step's
  // patch before a kept surface is reused and from the new one when computed.
  const int base_points = MaxPoints();
  const bool turned_last_step = m_state->friction_turns;
  bool merged_now = false;  // the state's points were merged from scratch.all_points by this call
  const auto lease = m_state->world->computeScratch().Borrow();
  ComputeScratch& scratch = *lease;
  // `ahead`: the points will be mapped back to the present poses (MapToPresentPoses), which then
  // judges merged points by their own points. `keep` false: a surface computed is not kept (the
  // present poses' one, taken beside the patch ahead). The kept one is still tried: bodies that
  // move together have the same relative pose now as ahead (without the try, plugin_bench's
  // BM_DropMixedPile on one thread took 0.35 % more instructions).
  auto make_points = [&](const btTransform& X0, const btTransform& X1, bool ahead, bool keep = true) {
    merged_now = false;
    const hydro::RigidTransform X_WS0_at = hydro::bullet::ToRigidTransform(X0);
    const hydro::RigidTransform X_WS1_at = hydro::bullet::ToRigidTransform(X1);
    hydro::RigidTransform carry;
    using hydro::bullet::SurfaceReuseOutcome;
    // A kept surface is reused only for the budget it was made for, judged from the last patch; a
    // surface computed anew is judged from its own points below.
    SurfaceReuseOutcome outcome = SurfaceReuseOutcome::kNotReused;
    int max_points = base_points;
    if (reuse && m_state->kept_surface.has_surface()) {
      max_points = PointBudget(base_points, turned_last_step, m_state->points);
      scratch.merged_into.clear();  // written when the reused points are merged ones
      if (max_points == m_state->kept_max_points)
        outcome =
            m_state->kept_surface.Reuse(g0.get(), X_WS0_at, g1.get(), X_WS1_at, &scratch.reused, &carry,
                                        ahead ? &scratch.all_points : nullptr, ahead ? &scratch.merged_into : nullptr);
    }
    if (outcome != SurfaceReuseOutcome::kNotReused) {
      m_state->CarryKeptSurface(carry);
      ++m_state->surfaces_reused;
      if (outcome == SurfaceReuseOutcome::kReusedWhole) {
        scratch.all_points.swap(scratch.reused);
        merged_now = TakePoints(max_points, scratch);
      } else {
        hydro::CopyGrowing(&m_state->points, scratch.reused);
        merged_now = !scratch.merged_into.empty();
      }
      return true;
    }
    hydro::ContactSurface* surface = m_state->MutableSurface();
    // A non-finite or sheared pose (kInvalidPose) leaves the surface empty: no contact this step.
    const hydro::bullet::PairSurfaceOutcome computed =
        hydro::bullet::CalcPairSurface(*g0, X_WS0_at, *g1, X_WS1_at, surface);
    if (computed != hydro::bullet::PairSurfaceOutcome::kComputed) m_state->kept_surface.Clear();
    if (computed == hydro::bullet::PairSurfaceOutcome::kNoPressureField) return false;
    hydro::MakeContactPoints(*surface, &scratch.all_points, hydro::bullet::PairPointQuadrature(*g0, *g1, base_points));
    hydro::bullet::BoundPointDepths(*g0, X_WS0_at, *g1, X_WS1_at, &scratch.all_points);
    ++m_state->surfaces_computed;
    max_points = PointBudget(base_points, turned_last_step, scratch.all_points);
    const bool reduced = TakePoints(max_points, scratch);
    merged_now = reduced;
    // An empty surface leaves a kept one in place: that one is still right at its own poses, and
    // it is judged by the relative motion since them. A pair may ask several times in a step
    // (present poses, poses ahead, body1 moved toward body0), and only some of them touch:
    // neighbours falling together in BasicDemo's block are apart at the first two and touch at
    // the third, whose surface an empty one cleared each step, so it was computed anew every step
    // of the fall (95 a step, most of the fall's instructions).
    if (m_state->points.empty() || !keep) return true;
    m_state->kept_surface.Clear();
    m_state->kept_max_points = max_points;
    if (reuse)
      m_state->kept_surface.Keep(g0, X_WS0_at, g1, X_WS1_at, *surface, reduced ? scratch.all_points : m_state->points,
                                 reduced ? &m_state->points : nullptr, reduced ? &scratch.merged_into : nullptr,
                                 max_points, m_state->solved_stiffness_scale);
    return true;
  };
  bool mapped = false;  // the points carry their own places on body1 (points_on_B)
  // Bodies apart along some axis by more than their free motion can close in a step have no
  // patch now, none at the poses ahead, and no speculative one (each of those needs an overlap,
  // or a gap along the centres below the same ClosingBound); nor do their geometries overlap,
  // so Bullet's contact is not needed either. Neighbours in a pile (BasicDemo: 2,960 such pairs
  // around 125 boxes at rest, and the ground box under every box of the upper layers) are
  // settled by this test instead of a surface each.
  using Kind = hydro::bullet::ShapeGeometry::Kind;
  bool apart = false;
  bool apart_now = false;  // apart at the present poses, though the step may close the gap
  if (!m_state->closest_points && dt > 0 && m_state->points.empty() && g0->kind != Kind::kUnsupported &&
      g1->kind != Kind::kUnsupported && (g0->is_compliant() || g1->is_compliant())) {
    // The line between the centres first (it settles side-by-side neighbours), then all seven.
    const hydro::RigidTransform X_WS0_now = hydro::bullet::ToRigidTransform(X_WS0);
    const hydro::RigidTransform X_WS1_now = hydro::bullet::ToRigidTransform(X_WS1);
    hydro::Vector3 axes[7];
    double gaps[7];
    double widest = 0;  // the largest gap found, for the certificate
    if (hydro::bullet::CalcGapAlongCentres(*g0, X_WS0_now, *g1, X_WS1_now, &axes[0], &gaps[0])) {
      apart = gaps[0] > 0 && gaps[0] > ClosingBound(dt, hydro::bullet::ToBullet(axes[0]));
      if (apart) widest = gaps[0];
    }
    if (!apart) {
      const int n = hydro::bullet::CalcGapsAlongAxes(*g0, X_WS0_now, *g1, X_WS1_now, axes, gaps);
      btVector3 axes_bt[7];
      double bounds[7];
      for (int k = 0; k < n; ++k) axes_bt[k] = hydro::bullet::ToBullet(axes[k]);
      ClosingBounds(dt, axes_bt, n, bounds);
      for (int k = 0; k < n; ++k) {
        apart = apart || (gaps[k] > 0 && gaps[k] > bounds[k]);
        widest = std::max(widest, gaps[k]);
      }
    }
    apart_now = !apart && widest > 0 && widest > hydro::bullet::GapRoundOff(*g0, *g1);
    if (apart)
      m_state->separation.Certify(widest, X_WS0_now, hydro::bullet::CalcExtentRadius(*g0), BoundingRadius(shape0),
                                  X_WS1_now, hydro::bullet::CalcExtentRadius(*g1), BoundingRadius(shape1));
  }
  // A pair that touched at the last step and was pressed in further than it overlapped is judged
  // from that step's points (its bodies have moved by a step's motion since): if it still
  // presses in, the surface at the present poses is not needed. At 60 Hz every resting pair
  // does (gravity presses g·δt² = 2.7 mm against µm of overlap), and that surface was a third of
  // BasicDemo's step at rest. One that no longer presses in is judged anew below.
  double depth = 0, approach = 0;
  bool touching = false;
  if (m_state->pressed_in_ahead && !m_state->points.empty() && !m_state->closest_points && dt > 0) {
    MeasureApproach(dt, &depth, &approach);
    touching = approach > depth;
  }
  m_state->pressed_in_ahead = false;
  if (apart) {
    patch = true;  // a supported pair with a compliant side, as CalcPairSurface would say
    m_state->MutableSurface()->Clear();
    m_state->points.clear();
    m_state->kept_surface.Clear();
  } else if (touching) {
    patch = true;  // it had a patch a step ago, and that depends on the shapes only
  } else if (apart_now && !(reuse && m_state->kept_surface.has_surface())) {
    // Its surface here is empty (pair_contact.h's AreApart, on the same gaps): not asked for. A kept
    // surface is left to make_points, which may reuse it. As make_points would leave the state:
    patch = true;
    m_state->MutableSurface()->Clear();
    m_state->points.clear();
    m_state->friction_turns = false;  // PointBudget's verdict on no points
  } else {
    patch = make_points(X_WS0, X_WS1, false);
    touching = !m_state->points.empty();
    depth = approach = 0;
    if (touching) MeasureApproach(dt, &depth, &approach);
  }
  // Speculative contact, first kind: when the bodies do not touch yet, or will press further into
  // each other over the step than they overlap now, the surface is taken at the poses they reach
  // along their free motion if nothing touches them (plugin/free_motion.h), its points mapped
  // back to each body's present pose. A body about to hit the ground then meets it within this
  // step's solve, inelastically, instead of a step later, deep inside it — which the compliant
  // law would return as a rebound at depth/δt. Otherwise the present surface is kept: a body
  // lifted off its support is not predicted away from it by the fall its support will stop.
  // The free motion is followed only until it presses the bodies a little deeper than now
  // (SpeculativeOverlapLimit), or for the whole step if that is less: a box arriving at 6 m/s
  // would otherwise be met 10 cm inside the ground, where its field levels off at its centre
  // and the patch's points carry nothing. Bodies apart are followed to a tenth of that overlap
  // past their first contact (kFirstContactOverlap), where the patch has the normals of first
  // contact: at the whole limit (5 cm for 0.2 m boxes) a box dropped 0.9 m onto another offset
  // by a quarter of its size met it with normals leaning up to 25° at the lower box's edges,
  // was pushed sideways at 0.3 m/s and slid off it at 1e6–1e10 Pa.
  if (patch && !apart && !m_state->closest_points && dt > 0 && (!touching || approach > depth)) {
    constexpr double kFirstContactOverlap = 0.1;
    const double limit = hydro::bullet::SpeculativeOverlapLimit(*g0, *g1);
    const double fraction = touching ? std::min(1.0, limit / approach)
                                     : FractionToOverlap(*g0, X_WS0, *g1, X_WS1, dt, kFirstContactOverlap * limit);
    for (double f : {fraction, 1.0}) {
      const btScalar tau = f * dt;
      const btTransform X_WS0_ahead = hydro::bullet::FreeMotionPose(m_state->body0, X_WS0, tau);
      const btTransform X_WS1_ahead = hydro::bullet::FreeMotionPose(m_state->body1, X_WS1, tau);
      make_points(X_WS0_ahead, X_WS1_ahead, true);
      mapped = !m_state->points.empty();
      if (mapped) {
        MapToPresentPoses(X_WS0, X_WS0_ahead, X_WS1, X_WS1_ahead, tau, merged_now, scratch);
        // A point whose normal leans off the motion (a box's side-wall sliver in a slab) moves
        // back by little of it: bound it again by the overlap the bodies have now. (Not against
        // a rigid shape: its bound is its face, which lies in the polygon's plane only ahead.)
        if (g0->kind != Kind::kRigidMesh && g1->kind != Kind::kRigidMesh)
          hydro::bullet::BoundPointDepths(*g0, hydro::bullet::ToRigidTransform(X_WS0), *g1,
                                          hydro::bullet::ToRigidTransform(X_WS1), &m_state->points);
        // Nor does a point press deeper now than twice the bodies' overlap now (0 apart: their
        // surface here is empty), whatever its depth ahead and whatever the overlap of their
        // boxes along its normal: where the advance made a sliver the present poses do not have
        // (at the corners of a box pressed into another's face off its centre, side wall
        // against side wall, normals level), it kept the depth it has ahead, and pushed the box
        // sideways off its support (dropped turned by 0.3 rad, at 1e8 Pa). Twice: a point of the
        // surface lies within the overlap of one body's boundary, along the axis that bounds it,
        // and where both fields have the same slope (two boxes of one size and modulus) it lies
        // as deep in the other, so φ0 ≥ −2·overlap there; unequal slopes can put a point deeper
        // in the softer body, and those are bounded too (measured only on the boxes above).
        hydro::bullet::LimitRecoveryDepth(
            touching ? 2 * hydro::bullet::CalcOverlapBound(*g0, hydro::bullet::ToRigidTransform(X_WS0), *g1,
                                                           hydro::bullet::ToRigidTransform(X_WS1))
                     : 0.0,
            &m_state->points);
        m_state->pressed_in_ahead = touching;
        if (touching && SupportFallsShort(dt)) {
          // The poses ahead are a step's free fall deeper than now (2.7 mm at 60 Hz, against µm at
          // rest), and a patch linearized there is only right here where its force grows in
          // proportion to its depth (a face). A box resting on an edge has its force grow like
          // depth², and its polygons ahead are wide strips pressing deep at the edge and not at all
          // at their rims: mapped back, their centroids lay apart while the edge still pressed, the
          // box sank through its support for three steps and the surface found it deep then threw it
          // up, for good (a box leaning on a wall at 1e6 Pa, at up to 5.5 cm/s; in a scratch run, a
          // box of a 64-body pile at 1e8 Pa in the float build, at 9 cm/s). When the patch carried
          // back holds less than half of last step's support, the surface here gives the force the
          // pair has now, exactly, and the points of the patch ahead that lie apart here (φ0 ≥ 0)
          // still meet what the step brings into contact. The surface here is not kept: the one
          // ahead is, to be reused at the next step while the pair rests. A pair whose surface
          // here is empty (apart now, pressing only ahead) keeps the patch ahead alone. Points of
          // both may come from the same elements, and then share their warm-start key.
          hydro::CopyGrowing(&scratch.ahead_points, m_state->points);
          hydro::CopyGrowing(&scratch.ahead_points_on_B, m_state->points_on_B);
          m_state->SwapSurfaceAside();
          const bool present = make_points(X_WS0, X_WS1, false, false) && !m_state->points.empty();
          if (!present) {
            m_state->SwapSurfaceAside();  // back: the surface read is the one solved
            hydro::CopyGrowing(&m_state->points, scratch.ahead_points);
            hydro::CopyGrowing(&m_state->points_on_B, scratch.ahead_points_on_B);
          } else {
            m_state->points_on_B.clear();
            for (const hydro::ContactPoint& point : m_state->points) m_state->points_on_B.push_back(point.p_WC);
            for (size_t i = 0; i < scratch.ahead_points.size(); ++i) {
              if (scratch.ahead_points[i].phi0_m < 0) continue;
              m_state->points.push_back(scratch.ahead_points[i]);
              m_state->points_on_B.push_back(scratch.ahead_points_on_B[i]);
            }
          }
        }
        break;
      }
      if (f == 1.0) break;  // a shorter advance found nothing: the whole step may
    }
    if (!mapped && touching) make_points(X_WS0, X_WS1, false);
  }
  // Speculative contact, second kind: bodies apart now and apart at their free-motion poses may
  // still meet within the step, when something stops one of them — a box falling onto a box that
  // lands this step in the same fall. If they are closer along the line between them than they
  // could close in a step (ClosingBound), the patch is taken with body1 moved that gap (plus
  // 0.1 mm) toward body0, each point's distance then lengthened by the move: the solver lets
  // them close the gap, not more.
  if (patch && !apart && !mapped && m_state->points.empty() && !m_state->closest_points && dt > 0) {
    hydro::Vector3 d;
    double gap = 0;
    if (hydro::bullet::CalcGapAlongCentres(*g0, hydro::bullet::ToRigidTransform(X_WS0), *g1,
                                           hydro::bullet::ToRigidTransform(X_WS1), &d, &gap) &&
        gap < ClosingBound(dt, hydro::bullet::ToBullet(d))) {
      constexpr double kTouch = 1e-4;
      const double shift = std::max(gap, 0.0) + kTouch;
      btTransform X_WS1_moved = X_WS1;
      X_WS1_moved.getOrigin() += hydro::bullet::ToBullet(shift * d);
      make_points(X_WS0, X_WS1_moved, false);
      mapped = !m_state->points.empty();
      if (mapped) {
        m_state->points_on_B.resize(m_state->points.size());
        for (size_t i = 0; i < m_state->points.size(); ++i) {
          hydro::ContactPoint& point = m_state->points[i];
          point.phi0_m += shift * d.dot(point.nhat_BA_W);
          m_state->points_on_B[i] = point.p_WC - shift * d;
        }
        // The move lengthens nothing across it: the side-wall slivers at the rim of two boxes
        // falling one above the other, their normals level, kept the overlap of the moved poses
        // and pushed the boxes sideways and set them spinning (1.2e-6 rad/s a step at 1 cm apart).
        hydro::bullet::LimitRecoveryDepth(0, &m_state->points);
      }
    }
  }
  if (!patch) return PairContact::kNoPatch;
  if (!mapped) m_state->points_on_B.clear();
  return apart ? PairContact::kApart : PairContact::kPatch;
}

void btHydroelasticCollisionAlgorithm::processPointContact(const btCollisionObjectWrapper* body0Wrap,
                                                           const btCollisionObjectWrapper* body1Wrap,
                                                           btManifoldResult* resultOut) {
  ShapeRegistry& registry = ShapeRegistry::Instance();
  const auto m0 = registry.PointMaterial(body0Wrap->getCollisionShape());
  const auto m1 = registry.PointMaterial(body1Wrap->getCollisionShape());
  if (!m0 && !m1) return;
  btPersistentManifold* manifold = resultOut->getPersistentManifold();
  if (!manifold) return;
  // 003: each side's E and d (an untagged side is rigid), combined by squish factors; the
  // stiffness k = 2·E·R of the "corruption of the Hertz model" with the smaller radius given.
  hydro::ContactMaterial material0, material1;
  material0.hydroelastic_modulus_Pa = m0 ? m0->m_youngsModulus : std::numeric_limits<double>::infinity();
  material0.hunt_crossley_dissipation_s_per_m = m0 ? m0->m_dissipation : 0;
  material1.hydroelastic_modulus_Pa = m1 ? m1->m_youngsModulus : std::numeric_limits<double>::infinity();
  material1.hunt_crossley_dissipation_s_per_m = m1 ? m1->m_dissipation : 0;
  const hydro::PointContactParameters params = hydro::CombinePointContact(material0, material1);
  const double radius = std::min(m0 ? m0->m_characteristicRadius : 1e300, m1 ? m1->m_characteristicRadius : 1e300);
  const double stiffness = hydro::PointContactStiffness(params.modulus_Pa, radius);
  // Bullet combined the points' friction by its own rule when it added them; the harmonic rule
  // replaces it.
  const bool harmonic = m_state->world->getFrictionRule() == HYDRO_FRICTION_HARMONIC;
  // The manifold's body 0 may be the pair's body 1: its points' "A" side is then body 1's.
  const bool swapped = manifold->getBody0() != body0Wrap->getCollisionObject();
  const btScalar friction =
      m_state->world->combinedFriction(body0Wrap->getCollisionObject(), body1Wrap->getCollisionObject());
  for (int i = 0; i < manifold->getNumContacts(); ++i) {
    btManifoldPoint& cp = manifold->getContactPoint(i);
    if (harmonic) cp.m_combinedFriction = friction;
    const double depth = std::max<double>(-cp.getDistance(), 0.0);
    cp.m_contactPointFlags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    cp.m_contactPointFlags &= ~(BT_CONTACT_FLAG_HAS_CONTACT_CFM | BT_CONTACT_FLAG_HAS_CONTACT_ERP);
    cp.m_combinedContactStiffness1 = stiffness;
    // Hunt–Crossley f = k·x·(1 + d·ẋ): damping d·k·x at the current depth.
    cp.m_combinedContactDamping1 = params.dissipation_s_per_m * stiffness * depth;
    // 003's contact point, C = sₙ·Mc + sₘ·Nc: between each side's point deepest in the other, where
    // the softer side's larger share of the deformation puts the surfaces' meeting. Bullet's
    // solver takes the point's lever arms from these two positions; the next step's refresh
    // recomputes them from the bodies' local points.
    const hydro::Vector3 p_WAc = hydro::bullet::ToEigen(cp.m_positionWorldOnA);
    const hydro::Vector3 p_WBc = hydro::bullet::ToEigen(cp.m_positionWorldOnB);
    const btVector3 p_WC = hydro::bullet::ToBullet(swapped ? hydro::PointContactLocation(params, p_WBc, p_WAc)
                                                           : hydro::PointContactLocation(params, p_WAc, p_WBc));
    cp.m_positionWorldOnA = p_WC;
    cp.m_positionWorldOnB = p_WC;
  }
}

void btHydroelasticCollisionAlgorithm::RunFallbackForDeepOverlap(const btCollisionObjectWrapper* body0Wrap,
                                                                 const btCollisionObjectWrapper* body1Wrap,
                                                                 const btDispatcherInfo& dispatchInfo,
                                                                 btManifoldResult* resultOut) {
  if (!m_fallback) return;
  m_fallback->processCollision(body0Wrap, body1Wrap, dispatchInfo, resultOut);
  // Kept only where the shapes' geometries truly overlap: Bullet's speculative points would
  // otherwise act before the patch does, on bodies the patch keeps apart by itself. Bullet's
  // distance is that of the shapes grown by their margins (MarginOutsideGeometry), so a point
  // counts only below minus both: a hull within its margin of the ground, not touching it yet,
  // has an empty patch and a Bullet point at a negative distance, which held it there (a 0.2 m
  // mesh crate on a compliant plane rested 1 mm up on Bullet's 4 points with PyBullet's 0.001 m
  // margin, 4 cm up with Bullet's 0.04 m, and never reached its patch).
  const double margins = hydro::bullet::MarginOutsideGeometry(*body0Wrap->getCollisionShape()) +
                         hydro::bullet::MarginOutsideGeometry(*body1Wrap->getCollisionShape());
  btManifoldArray manifolds;
  m_fallback->getAllContactManifolds(manifolds);
  bool overlap = false;
  for (int m = 0; m < manifolds.size(); ++m)
    for (int i = 0; i < manifolds[m]->getNumContacts(); ++i)
      overlap = overlap || manifolds[m]->getContactPoint(i).getDistance() < -margins;
  m_state->fallback_contact = true;
  if (!overlap) ClearFallbackContact();
}

void btHydroelasticCollisionAlgorithm::ClearFallbackContact() {
  btManifoldArray manifolds;
  m_fallback->getAllContactManifolds(manifolds);
  for (int m = 0; m < manifolds.size(); ++m) manifolds[m]->clearManifold();
  m_state->fallback_contact = false;
}

int btHydroelasticCollisionAlgorithm::MaxPoints() const {
  // The shapes' own budget, else the world's default: for every pair from its first step, under any
  // solver (a pair that started with its whole patch made a 1,000-brick wall's first step take
  // minutes).
  const int asked = m_state->shapes.max_patch_points();
  return asked > 0 ? asked : m_state->world->getDefaultMaxPatchPoints();
}

int btHydroelasticCollisionAlgorithm::PointBudget(int max_points, bool turned_last_step,
                                                  const std::vector<hydro::ContactPoint>& patch) {
  m_state->friction_turns = false;
  if (max_points <= 0 || patch.empty()) return max_points;
  const hydro::bullet::FreeMotion motion0(m_state->body0, 0), motion1(m_state->body1, 0);
  const hydro::Vector3& p_WO = patch.front().p_WC;
  const btVector3 p_WO_bt = hydro::bullet::ToBullet(p_WO);
  const hydro::PatchSlip slip = hydro::CalcPatchSlip(
      patch, p_WO, hydro::bullet::ToEigen(motion0.PointVelocity(p_WO_bt) - motion1.PointVelocity(p_WO_bt)),
      hydro::bullet::ToEigen(motion0.AngularVelocity() - motion1.AngularVelocity()));
  m_state->friction_turns = hydro::PatchFrictionTurns(slip, turned_last_step);
  return m_state->friction_turns ? m_state->world->turningBudget(max_points) : max_points;
}

bool btHydroelasticCollisionAlgorithm::TakePoints(int max_points, ComputeScratch& scratch) {
  const std::vector<hydro::ContactPoint>& all_points = scratch.all_points;
  if (max_points <= 0 || static_cast<int>(all_points.size()) <= max_points) {
    // Copied, not swapped: the pair's buffer grows once to what it holds, and the scratch's is
    // not traded for one too small for the next pair that borrows it.
    hydro::CopyGrowing(&m_state->points, all_points);
    return false;
  }
  hydro::ReduceContactPoints(all_points, max_points, &m_state->points, &scratch.merged_into, &m_state->reduction_axis_W,
                             &m_state->reduction_workspace);
  return true;
}

bool btHydroelasticCollisionAlgorithm::SupportFallsShort(btScalar dt) const {
  // Last step's solve ended at the present poses, so for a pair at rest its points' impulse over
  // the step is about the force the pair needs here; a patch carried back that presses with less
  // than half of it is linearized too far off. (After an impact the impulse is the impact's, and
  // the surface here is taken for a step more than needed.) Half, by measurement and narrowly: at
  // a quarter the box leaning on a wall at 60° and 1e6 Pa still hopped (its patch ahead held
  // between a quarter and half of its support); above half the faceted round bodies of
  // StiffScenesTest.ASphereAndACapsuleSetDownAt60HzComeToRestAtAnyStiffness take the surface here
  // more often, which shows them balanced on a vertex or ridge where the patch ahead, spread over
  // the facets around it, held them: at three quarters a sphere at 1e8 Pa gained 2.5e-3 J/kg in a
  // step, at 0.9 one at 1e6 Pa still rolled at 1 cm/s after 5 s.
  constexpr double kShortfall = 0.5;
  double force = 0, last_impulse = 0;
  for (const hydro::ContactPoint& point : m_state->points)
    force += point.stiffness_N_per_m * std::max(-point.phi0_m, 0.0);
  for (const PatchState::Carried& carried : m_state->warm_start) last_impulse += carried.normal_impulse;
  return force * dt < kShortfall * last_impulse;
}

void btHydroelasticCollisionAlgorithm::MeasureApproach(btScalar dt, double* depth, double* approach) const {
  // How far the free motion presses the bodies together over the step, against how deep they are.
  *depth = *approach = 0;
  const hydro::bullet::FreeMotion free0(m_state->body0, dt), free1(m_state->body1, dt);
  for (const hydro::ContactPoint& point : m_state->points) {
    const btVector3 p = hydro::bullet::ToBullet(point.p_WC);
    const btScalar vn = hydro::bullet::ToBullet(point.nhat_BA_W).dot(free0.PointVelocity(p) - free1.PointVelocity(p));
    *depth = std::max(*depth, -point.phi0_m);
    *approach = std::max(*approach, -static_cast<double>(dt * vn));
  }
}

double btHydroelasticCollisionAlgorithm::FractionToOverlap(const hydro::bullet::ShapeGeometry& g0,
                                                           const btTransform& X_WS0,
                                                           const hydro::bullet::ShapeGeometry& g1,
                                                           const btTransform& X_WS1, btScalar dt,
                                                           double overlap) const {
  // Bodies apart: the part of the step after which their free motion has closed the gap and
  // pressed `overlap` further. They touch only once every axis that separates them has closed,
  // so the axis that closes last (the largest gap over closing speed; rotation aside) bounds the
  // time of first contact, and is the normal they meet along: a box's face when it falls on the
  // face of another off the line between their centres. Along that line alone the gap was an
  // underestimate there, the surface ahead came out empty, and the whole step's motion was taken
  // instead: 5 cm deep, where the patch's normals lean 20–35° at the lower box's edge (a box
  // dropped 0.9 m onto another offset by a quarter of its size slid off it at 1e8 Pa).
  hydro::Vector3 axes[7];
  double gaps[7];
  const int n = hydro::bullet::CalcGapsAlongAxes(g0, hydro::bullet::ToRigidTransform(X_WS0), g1,
                                                 hydro::bullet::ToRigidTransform(X_WS1), axes, gaps);
  if (n == 0) return 1;
  auto centre_velocity = [dt](const btCollisionObject* object) {
    btVector3 v(0, 0, 0), w(0, 0, 0);
    return hydro::bullet::FreeTwist(object, dt, &v, &w) ? v : btVector3(0, 0, 0);
  };
  const btVector3 v_10 = centre_velocity(m_state->body0) - centre_velocity(m_state->body1);
  int last = 0;  // the line between the centres when no axis separates them
  double latest = -1;
  for (int k = 0; k < n; ++k) {
    if (!(gaps[k] > 0)) continue;
    const double closing = -hydro::bullet::ToBullet(axes[k]).dot(v_10);  // axes run from body1 to body0
    if (!(closing > 0)) return 1;                                        // apart along an axis they do not close along
    if (gaps[k] / closing > latest) {
      latest = gaps[k] / closing;
      last = k;
    }
  }
  const double closing = -hydro::bullet::ToBullet(axes[last]).dot(v_10);
  if (!(closing > 0)) return 1;
  return std::clamp((std::max(gaps[last], 0.0) + overlap) / (closing * dt), 0.0, 1.0);
}

void btHydroelasticCollisionAlgorithm::MapToPresentPoses(const btTransform& X_WS0, const btTransform& X_WS0_ahead,
                                                         const btTransform& X_WS1, const btTransform& X_WS1_ahead,
                                                         btScalar tau, bool merged_now, ComputeScratch& scratch) {
  // Each point moves back with each body's own motion over the time τ it was advanced; its distance
  // becomes the one at the start of the step that the point law expects: φ0 = φ_τ − τ·vn_free,
  // since with separation speed vn the distance after τ is φ_τ + τ·(vn − vn_free).
  const btTransform M0 = X_WS0 * X_WS0_ahead.inverse();
  const btTransform M1 = X_WS1 * X_WS1_ahead.inverse();
  const hydro::bullet::FreeMotion free0(m_state->body0, tau), free1(m_state->body1, tau);
  auto map = [&](hydro::ContactPoint* point, btVector3* p_B) {
    const btVector3 p_end = hydro::bullet::ToBullet(point->p_WC);
    const btVector3 p_A = M0 * p_end;
    *p_B = M1 * p_end;
    const btVector3 n = M0.getBasis() * hydro::bullet::ToBullet(point->nhat_BA_W);
    const btScalar vn_free = n.dot(free0.PointVelocity(p_A) - free1.PointVelocity(*p_B));
    point->p_WC = hydro::bullet::ToEigen(p_A);
    point->nhat_BA_W = hydro::bullet::ToEigen(n);
    point->phi0_m -= tau * vn_free;
    point->fn0_N = point->stiffness_N_per_m * std::max(-point->phi0_m, 0.0);  // its force at φ0 now
  };
  m_state->points_on_B.resize(m_state->points.size());
  for (size_t i = 0; i < m_state->points.size(); ++i) {
    btVector3 p_B;
    map(&m_state->points[i], &p_B);
    m_state->points_on_B[i] = hydro::bullet::ToEigen(p_B);
  }
  if (!merged_now || scratch.merged_into.size() != scratch.all_points.size()) return;
  // A merged point's depth is its points' stiffness-weighted mean (hydro/point_reduction.h), which
  // keeps their force where they all press: at the poses ahead, not here. Mapped back, some of
  // them no longer press, and the mean of their depths is shallower than their force makes it:
  // (Σ k·φ0)/K ≥ −(Σ k·(−φ0)₊)/K. Where a patch's pressure grows faster than its depth (the obtuse
  // vertex of a faceted sphere, 1 mm deep under its weight at 1e10 Pa) the mean left nothing
  // pressing here: the body fell through its support for a step, and the next surface, 1 mm deep
  // with a face's stiffness, threw it up at 1 mm/δt. Each merged point whose points press here
  // takes their force, F = Σ k·(−φ0)₊ over its points mapped one by one, as φ0 = −F/K (not the
  // deeper of that and its own mapped depth: its own place, its force's centroid ahead spread for
  // torsion, moves back by another amount when the bodies turn). One whose points all lie apart
  // here keeps its mapped depth. (Taking their mapped mean instead left a box dropped off-centre
  // onto another resting 84 µm high on one edge, 2 mrad tilted.) Its stiffness stays K, all its
  // points': closing on the present poses it presses harder than they would until they all press.
  const size_t reduced = m_state->points.size();
  std::vector<double>& force = scratch.merged_force;
  hydro::AssignGrowing(&force, reduced, 0.0);
  for (size_t i = 0; i < scratch.all_points.size(); ++i) {
    const int j = scratch.merged_into[i];
    if (j < 0 || static_cast<size_t>(j) >= reduced) continue;
    hydro::ContactPoint point = scratch.all_points[i];
    btVector3 unused;
    map(&point, &unused);
    force[j] += point.fn0_N;
  }
  for (size_t j = 0; j < reduced; ++j) {
    hydro::ContactPoint& point = m_state->points[j];
    if (force[j] > 0 && point.stiffness_N_per_m > 0) {
      point.phi0_m = -force[j] / point.stiffness_N_per_m;
      point.fn0_N = force[j];
    }
  }
}

double btHydroelasticCollisionAlgorithm::BoundingRadius(const btCollisionShape* shape) {
  // Read directly for the commonest shapes: most of a pile's pairs are certified apart, and for
  // each the two virtual calls of getBoundingSphere (it takes a box's AABB) were 3 % of BasicDemo's
  // step at rest. A box's implicit dimensions are its scaled half extents without the margin.
  switch (shape->getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: {
      const btBoxShape* box = static_cast<const btBoxShape*>(shape);
      const btScalar margin = box->getMarginNV();
      return (box->getImplicitShapeDimensions() + btVector3(margin, margin, margin)).length();
    }
    case SPHERE_SHAPE_PROXYTYPE:
      return static_cast<const btSphereShape*>(shape)->getRadius();
    default: {
      btVector3 centre;
      btScalar radius = 0;
      shape->getBoundingSphere(centre, radius);
      return radius;
    }
  }
}

bool btHydroelasticCollisionAlgorithm::StillCertifiedApart(btScalar dt, const btCollisionShape* shape0,
                                                           const btTransform& X_WS0, const btCollisionShape* shape1,
                                                           const btTransform& X_WS1) const {
  // The most the pair can close in the step along any axis: each body's free speed plus its spin
  // times the reach of its geometry from the body's centre (ClosingBounds, without the projection
  // on an axis; a compound's child sits away from it).
  const hydro::bullet::SeparationCertificate& certificate = m_state->separation;
  double closing = 0;
  const double extents[2] = {certificate.extent0_m(), certificate.extent1_m()};
  const btCollisionObject* objects[2] = {m_state->body0, m_state->body1};
  const btTransform* poses[2] = {&X_WS0, &X_WS1};
  for (int i = 0; i < 2; ++i) {
    btVector3 v, w;
    if (!hydro::bullet::FreeTwist(objects[i], dt, &v, &w)) continue;
    const double spin = w.length();
    const double reach = extents[i] + (poses[i]->getOrigin() - objects[i]->getWorldTransform().getOrigin()).length();
    closing += dt * (v.length() + (spin == 0 ? 0.0 : spin * reach));
  }
  return certificate.StillApartBy(closing, hydro::bullet::ToRigidTransform(X_WS0), BoundingRadius(shape0),
                                  hydro::bullet::ToRigidTransform(X_WS1), BoundingRadius(shape1));
}

double btHydroelasticCollisionAlgorithm::ClosingBound(btScalar dt, const btVector3& dhat) const {
  double bound = 0;
  ClosingBounds(dt, &dhat, 1, &bound);
  return bound;
}

void btHydroelasticCollisionAlgorithm::ClosingBounds(btScalar dt, const btVector3* axes, int n, double* bounds) const {
  // The farthest the two could close along d̂ in a step: each body's free speed along d̂ plus its
  // spin times its bounding radius (gravity and applied forces included in the free motion). Any
  // of them may be stopped by a third body, so the speeds add whatever their signs; only the
  // part along the line between them counts: neighbours falling side by side do not close.
  for (int k = 0; k < n; ++k) bounds[k] = 0;
  for (const btCollisionObject* object : {m_state->body0, m_state->body1}) {
    btVector3 v, w;
    if (!hydro::bullet::FreeTwist(object, dt, &v, &w)) continue;
    btVector3 centre;
    btScalar radius = 0;
    object->getCollisionShape()->getBoundingSphere(centre, radius);
    const double spin = w.length() * radius;
    for (int k = 0; k < n; ++k) bounds[k] += dt * (btFabs(v.dot(axes[k])) + spin);
  }
}

btScalar btHydroelasticCollisionAlgorithm::calculateTimeOfImpact(btCollisionObject* body0, btCollisionObject* body1,
                                                                 const btDispatcherInfo& dispatchInfo,
                                                                 btManifoldResult* resultOut) {
  return m_fallback ? m_fallback->calculateTimeOfImpact(body0, body1, dispatchInfo, resultOut) : btScalar(1);
}

void btHydroelasticCollisionAlgorithm::getAllContactManifolds(btManifoldArray& manifoldArray) {
  for (btPersistentManifold* manifold : m_state->manifolds) manifoldArray.push_back(manifold);
  if (m_fallback) m_fallback->getAllContactManifolds(manifoldArray);
}

btCollisionAlgorithm* btHydroelasticCollisionAlgorithm::CreateFunc::CreateCollisionAlgorithm(
    btCollisionAlgorithmConstructionInfo& ci, const btCollisionObjectWrapper* body0Wrap,
    const btCollisionObjectWrapper* body1Wrap) {
  ShapeRegistry& registry = ShapeRegistry::Instance();
  const btCollisionShape* shape0 = body0Wrap->getCollisionShape();
  const btCollisionShape* shape1 = body1Wrap->getCollisionShape();
  btCollisionAlgorithm* fallback =
      m_fallback ? m_fallback->CreateCollisionAlgorithm(ci, body0Wrap, body1Wrap) : nullptr;
  const bool tagged = registry.IsHydroelastic(shape0) || registry.IsHydroelastic(shape1) ||
                      registry.PointMaterial(shape0) || registry.PointMaterial(shape1);
  if (!tagged) return fallback;
  void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(btHydroelasticCollisionAlgorithm));
  return new (memory)
      btHydroelasticCollisionAlgorithm(ci, body0Wrap, body1Wrap, fallback, m_closestPoints, m_worldState);
}
