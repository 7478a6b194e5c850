#pragma once
// Tagging Bullet shapes for patch contact: the calls a Bullet program makes once per shape, and
// the world-wide defaults. Part of the installed API (<hydrobullet/btHydroelastic.h>).
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include "adapters/hydroelastic_properties.h"

// Failures are reported the way Bullet code expects, never by an exception: the call returns
// false and changes nothing, and the message (naming the shape type and the bad value) goes to the
// error callback, which prints "HydroBullet: <message>" to stderr unless the program sets its own.
typedef void (*btHydroelasticErrorCallback)(const char* message);
// nullptr restores the default (stderr).
void hydroSetErrorCallback(btHydroelasticErrorCallback callback);

// Makes `shape` hydroelastic (compliant or rigid) for every object that uses it.
bool hydroSetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties);
// Keeps Bullet's contact points for pairs involving `shape`, made compliant per seed 003.
bool hydroSetPointContactMaterial(const btCollisionShape* shape, const btPointContactMaterial& material);
// Reduces every patch to at most `maxPoints` solver points unless a shape asks for fewer (0: off;
// negative: refused).
bool hydroSetDefaultMaxPatchPoints(int maxPoints);
// On by default: a pair whose bodies have moved less relative to each other than a tolerance
// since its contact surface was computed keeps that surface, its points' depths updated to first
// order (plugin/surface_reuse.h states the error bound). Off computes every surface anew.
void hydroSetSurfaceReuse(bool on);
// Forgets the shape (call before deleting a tagged shape).
void hydroRemoveShape(const btCollisionShape* shape);
