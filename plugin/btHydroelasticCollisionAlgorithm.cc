#include "plugin/btHydroelasticCollisionAlgorithm.h"

#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/CollisionDispatch/btSphereSphereCollisionAlgorithm.h>

#include <chrono>
#include <cmath>
#include <new>

#include "adapters/bullet_conversions.h"
#include "adapters/shape_registry.h"
#include "hydro/contact_material.h"
#include "hydro/point_reduction.h"
#include "plugin/manifold_emitter.h"
#include "plugin/pair_contact.h"
#include "plugin/btHydroelasticStats.h"
#include "plugin/patch_registry.h"

using hydro::bullet::PatchState;
using hydro::bullet::ShapeRegistry;

static_assert(sizeof(btHydroelasticCollisionAlgorithm) <= sizeof(btSphereSphereCollisionAlgorithm),
              "must fit the smallest collision-algorithm pool element Bullet configures");

btHydroelasticCollisionAlgorithm::btHydroelasticCollisionAlgorithm(const btCollisionAlgorithmConstructionInfo& ci,
                                                                   const btCollisionObjectWrapper* body0Wrap,
                                                                   const btCollisionObjectWrapper* body1Wrap,
                                                                   btCollisionAlgorithm* fallback, bool closestPoints)
    : btCollisionAlgorithm(ci), m_fallback(fallback), m_state(new PatchState) {
  m_state->dispatcher = ci.m_dispatcher1;
  m_state->body0 = body0Wrap->getCollisionObject();
  m_state->body1 = body1Wrap->getCollisionObject();
  m_state->closest_points = closestPoints;
  if (!closestPoints) hydro::bullet::PatchRegistry::Instance().Add(m_state);
}

btHydroelasticCollisionAlgorithm::~btHydroelasticCollisionAlgorithm() {
  if (!m_state->closest_points) hydro::bullet::PatchRegistry::Instance().Remove(m_state);
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
  ShapeRegistry& registry = ShapeRegistry::Instance();
  const btCollisionShape* shape0 = body0Wrap->getCollisionShape();
  const btCollisionShape* shape1 = body1Wrap->getCollisionShape();
  bool patch = false;
  // A compound meets the other shape child by child through Bullet's compound algorithm (our
  // fallback), which dispatches every child pair back to this plugin.
  const bool compound = shape0->isCompound() || shape1->isCompound();
  if (!compound && (registry.IsCompliant(shape0) || registry.IsCompliant(shape1))) {
    const bool timed = hydroStatsTiming();
    const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    const auto g0 = registry.Geometry(shape0);
    const auto g1 = registry.Geometry(shape1);
    hydro::bullet::HarvestWarmStart(m_state);
    try {
      patch = hydro::bullet::ComputePairSurface(*g0, hydro::bullet::ToRigidTransform(body0Wrap->getWorldTransform()),
                                                *g1, hydro::bullet::ToRigidTransform(body1Wrap->getWorldTransform()),
                                                &m_state->surface);
    } catch (const hydro::InvalidInput&) {
      // A non-finite or sheared pose: no contact for this pair this step rather than NaNs.
      m_state->surface.Clear();
      patch = true;
    }
    if (patch) {
      hydro::MakeContactPoints(m_state->surface, &m_state->points);
      const int max_points = registry.MaxPatchPoints(shape0, shape1);
      if (max_points > 0 && static_cast<int>(m_state->points.size()) > max_points) {
        hydro::ReduceContactPoints(m_state->points, max_points, &m_state->reduced_points);
        m_state->points.swap(m_state->reduced_points);
      }
      if (m_state->closest_points) {
        // A query: report each solver point through the caller's result, normal on body1.
        for (const hydro::ContactPoint& point : m_state->points)
          resultOut->addContactPoint(hydro::bullet::ToBullet(point.nhat_BA_W), hydro::bullet::ToBullet(point.p_WC),
                                     point.phi0_m);
        return;
      }
      m_state->combined_friction =
          hydro::CombineFriction(m_state->body0->getFriction(), m_state->body1->getFriction());
      m_state->combined_dissipation_s_per_m =
          hydro::CombineDissipationByModulus(g0->modulus_Pa, g0->dissipation_s_per_m, g1->modulus_Pa,
                                             g1->dissipation_s_per_m);
      m_state->time_step = dispatchInfo.m_timeStep;
      hydro::bullet::EmitPoints(m_state);
      hydro::bullet::RecordPatch(
          timed ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() : 0.0,
          m_state->num_points_emitted, !m_state->points.empty());
      return;
    }
  }
  // No patch: Bullet's own contact for this pair (and nothing left over from earlier patches).
  if (!m_state->manifolds.empty()) {
    m_state->surface.Clear();
    m_state->points.clear();
    hydro::bullet::EmitPoints(m_state);
  }
  if (m_fallback) {
    m_fallback->processCollision(body0Wrap, body1Wrap, dispatchInfo, resultOut);
    processPointContact(body0Wrap, body1Wrap, resultOut);
  }
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
  for (int i = 0; i < manifold->getNumContacts(); ++i) {
    btManifoldPoint& cp = manifold->getContactPoint(i);
    const double depth = std::max<double>(-cp.getDistance(), 0.0);
    cp.m_contactPointFlags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
    cp.m_contactPointFlags &= ~(BT_CONTACT_FLAG_HAS_CONTACT_CFM | BT_CONTACT_FLAG_HAS_CONTACT_ERP);
    cp.m_combinedContactStiffness1 = stiffness;
    // Hunt–Crossley f = k·x·(1 + d·ẋ): damping d·k·x at the current depth.
    cp.m_combinedContactDamping1 = params.dissipation_s_per_m * stiffness * depth;
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
  btCollisionAlgorithm* fallback = m_fallback ? m_fallback->CreateCollisionAlgorithm(ci, body0Wrap, body1Wrap) : nullptr;
  const bool tagged = registry.IsHydroelastic(shape0) || registry.IsHydroelastic(shape1) ||
                      registry.PointMaterial(shape0) || registry.PointMaterial(shape1);
  if (!tagged) return fallback;
  void* memory = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(btHydroelasticCollisionAlgorithm));
  return new (memory) btHydroelasticCollisionAlgorithm(ci, body0Wrap, body1Wrap, fallback, m_closestPoints);
}
