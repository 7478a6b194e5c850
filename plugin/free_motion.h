#pragma once
// Where a body would be, and how fast its points would move, at the end of the step if nothing
// touched it: its velocity plus what gravity and applied forces add over the step (Bullet's solver
// starts from exactly this). Patches are computed at these poses (speculative contact): a body
// that will reach the ground during the step already has its patch, with a positive distance.
#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <LinearMath/btTransform.h>

namespace hydro {
namespace bullet {

// The free velocity of the object's material point at p_W (world). Zero for static objects and for
// objects that are not rigid bodies (multibody links: their velocities live in their multibody).
btVector3 FreePointVelocity(const btCollisionObject* object, const btVector3& p_W, btScalar dt);

// The pose at the end of the step of a shape with pose X_WS now, attached to `object`.
btTransform FreeMotionPose(const btCollisionObject* object, const btTransform& X_WS, btScalar dt);

}  // namespace bullet
}  // namespace hydro
