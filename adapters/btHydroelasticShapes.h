#pragma once
// Tagging Bullet shapes for patch contact: the calls a Bullet program makes once per shape (a
// world's own defaults live in its btHydroelasticWorldState). Part of the installed API
// (<hydrobullet/btHydroelastic.h>).
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include "adapters/hydroelastic_properties.h"

class btCollisionWorld;

// Failures are reported the way Bullet code expects, never by an exception: the call returns
// false and changes nothing, and the message (naming the shape type and the bad value) goes to the
// error callback, which prints "HydroBullet: <message>" to stderr unless the program sets its own.
typedef void (*btHydroelasticErrorCallback)(const char* message);
// nullptr restores the default (stderr).
void hydroSetErrorCallback(btHydroelasticErrorCallback callback);

// Makes `shape` hydroelastic (compliant or rigid) for every object that uses it. Tagging a
// btCompoundShape tags its children (recursively); a child tagged again later keeps the later tag.
bool hydroSetHydroelastic(const btCollisionShape* shape, const btHydroelasticProperties& properties);
// Keeps Bullet's contact points for pairs involving `shape` (a compound: its children), made
// compliant per seed 003.
bool hydroSetPointContactMaterial(const btCollisionShape* shape, const btPointContactMaterial& material);
// Upgrades a whole scene in one call: tags the shape of every dynamic object in `world` (not
// static or kinematic objects, not soft bodies; compounds through their children) and makes the
// algorithms of pairs that already met anew, so they take patch contact from the next step.
// Static objects (the ground) stay untagged, hence rigid, unless tagged themselves. Returns the
// number of distinct shapes tagged, or -1 (nothing tagged, message to the error callback) when the
// properties are refused. The world's dispatcher must come from btHydroelasticCollisionConfiguration
// (or have btHydroelasticDispatcherInstaller on it).
int hydroSetHydroelasticWorld(btCollisionWorld* world, const btHydroelasticProperties& properties);
// Forgets the shape, and a compound's children (call before deleting a tagged shape).
void hydroRemoveShape(const btCollisionShape* shape);
