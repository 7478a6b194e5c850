#pragma once
// Loading robot models and scenes into a Bullet multibody world, compliance tags and all, with
// Bullet's types only: URDF, SDF (with their drake:/hydro: tags, urdf/TAGS.md), or a .bullet file
// saved by Bullet or PyBullet. Part of the installed API (<hydrobullet/btHydroelastic.h>).
//
//   btHydroelasticModelLoader loader;
//   loader.setRules("dynamic compliant E=1e7\n");               // optional: tag without editing
//   if (!loader.loadFile("robot.urdf", &world)) printf("%s", loader.getErrors());  // file:line
//   btMultiBody* arm = loader.findMultiBody("robot::base");
//
// The loader owns what it adds (bodies, multibodies, shapes, constraints, motors) and removes it
// from the world when destroyed or when it loads again; keep it alive as long as the world uses
// them. Failures are reported as Bullet code expects: loadFile returns false, getErrors() names
// the file and line, no exception escapes, and the world is left as it was.
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <LinearMath/btTransform.h>

class btHydroelasticModelLoader {
 public:
  btHydroelasticModelLoader();
  ~btHydroelasticModelLoader();
  btHydroelasticModelLoader(const btHydroelasticModelLoader&) = delete;
  btHydroelasticModelLoader& operator=(const btHydroelasticModelLoader&) = delete;

  // Compliance rules (urdf/TAGS.md's rule files, one rule a line) that replace the file's tags
  // where they match; checked by loadFile. Empty: the file's own tags.
  void setRules(const char* rules);
  // Jointed models as btMultiBody (default) or as rigid bodies with constraints.
  void setUseMultiBody(bool on);
  // Where package://NAME/ and model://NAME/ are looked for, besides ROS_PACKAGE_PATH, SDF_PATH and
  // GZ_SIM_RESOURCE_PATH (unless setUseEnvironmentPaths(false)).
  void addPackagePath(const char* directory);
  void addModelPath(const char* directory);
  void setUseEnvironmentPaths(bool on);

  // Adds the file's bodies to `world`, replacing what this loader added before.
  bool loadFile(const char* path, btMultiBodyDynamicsWorld* world);
  // Every error of the last load, one per line as "file:line: error: ...", and its warnings.
  const char* getErrors() const;
  const char* getWarnings() const;

  // The loaded bodies: links named "model::link" (a .bullet file's: the names it registered).
  int getNumBodies() const;
  const char* getBodyName(int index) const;
  // The body's collision object, its rigid body or its multibody (with the link's index, -1 for
  // the base), or null: a rigid body has no multibody and a multibody link no rigid body.
  btCollisionObject* getCollisionObject(int index) const;
  btRigidBody* getRigidBody(int index) const;
  btMultiBody* getMultiBody(int index, int* linkIndex = nullptr) const;
  // The index of the body named `name` ("model::link"), or -1.
  int findBody(const char* name) const;
  btRigidBody* findRigidBody(const char* name) const;
  btMultiBody* findMultiBody(const char* name, int* linkIndex = nullptr) const;
  // The link frame's pose in world (the file's frame, not Bullet's centre-of-mass frame).
  btTransform getLinkWorldTransform(int index) const;

  // The file's gravity and step size (60 Hz when it names none). A .bullet file sets the world's
  // gravity as Bullet's importer does; its solver settings are not applied.
  btVector3 getGravity() const;
  btScalar getStepSize() const;

  // Per step, before stepSimulation: viscous joint damping from the file, and the joint motors'
  // targets for the step from time to time + timeStep (hydro:motor keyframes).
  void applyJointDamping() const;
  void applyJointMotors(btScalar time, btScalar timeStep) const;

 private:
  struct Impl;
  Impl* m_impl;
};
