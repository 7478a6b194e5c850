#pragma once
// Where a body would be, and how fast its points would move, at the end of the step if nothing
// touched it: its velocity plus what gravity and applied forces add over the step (Bullet's solver
// starts from exactly this). Patches are computed at these poses (speculative contact): a body
// that will reach the ground during the step already has its patch, with a positive distance.
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btTransform.h>

namespace hydro {
namespace bullet {

// The object's free twist over the step: the velocity of its centre of mass v and its spin ω
// (world), or false when it does not move (static objects, plain collision objects, the base of a
// fixed-base multibody). A multibody link's is its twist now (from its multibody's joint
// velocities), plus what its applied force adds over the step when the multibody is a lone base
// (for a jointed link that would take the articulated dynamics: the solver finds the true motion,
// this only chooses where a speculative patch is taken).
bool FreeTwist(const btCollisionObject* object, btScalar dt, btVector3* v_WC, btVector3* w_W);

// The object's centre of mass (world): a rigid body's, or a multibody link's frame origin.
btVector3 CentreOfMass(const btCollisionObject* object);

// An object's free twist, taken once for the velocities of many of its points.
class FreeMotion {
 public:
  FreeMotion(const btCollisionObject* object, btScalar dt);
  // The free velocity of the object's material point at p_W (world); zero when it does not move.
  btVector3 PointVelocity(const btVector3& p_W) const {
    return m_moves ? m_v + m_w.cross(p_W - m_centre) : btVector3(0, 0, 0);
  }
  btVector3 AngularVelocity() const { return m_moves ? m_w : btVector3(0, 0, 0); }

 private:
  btVector3 m_v{0, 0, 0}, m_w{0, 0, 0}, m_centre{0, 0, 0};
  bool m_moves{false};
};

// The pose at the end of the step of a shape with pose X_WS now, attached to `object`.
btTransform FreeMotionPose(const btCollisionObject* object, const btTransform& X_WS, btScalar dt);

}  // namespace bullet
}  // namespace hydro
