// Loading a model file from an installed package with Bullet's types only: an SDF scene (a
// compliant 10 cm box on a rigid ground plane, its compliance in drake: tags) written to a
// temporary file, loaded with btHydroelasticModelLoader into a multibody world, stepped for 1 s at
// the file's step. Exits 0 if the box rests on one patch carrying its weight, and a broken file
// is refused with its file:line.
#include <btBulletDynamicsCommon.h>
#include <hydrobullet/btHydroelastic.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string WriteTemp(const char* name, const char* text) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/hydrobullet_consumer_" + name;
  FILE* file = std::fopen(path.c_str(), "w");
  if (!file) return "";
  std::fputs(text, file);
  std::fclose(file);
  return path;
}

const char* kScene = R"(<?xml version="1.0"?>
<sdf version="1.9" xmlns:drake="http://drake.mit.edu">
  <world name="box_on_ground">
    <gravity>0 0 -9.81</gravity>
    <physics type="bullet"><max_step_size>0.001</max_step_size></physics>
    <model name="ground"><static>true</static><link name="plane"><collision name="c">
      <geometry><plane><normal>0 0 1</normal></plane></geometry>
      <drake:proximity_properties><drake:rigid_hydroelastic/></drake:proximity_properties>
    </collision></link></model>
    <model name="box"><pose>0 0 0.0499 0 0 0</pose><link name="body">
      <inertial><mass>1</mass><inertia><ixx>1.7e-3</ixx><iyy>1.7e-3</iyy><izz>1.7e-3</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>0.1 0.1 0.1</size></box></geometry>
        <drake:proximity_properties><drake:compliant_hydroelastic/>
          <drake:hydroelastic_modulus>1e6</drake:hydroelastic_modulus></drake:proximity_properties>
      </collision></link></model>
  </world>
</sdf>
)";

}  // namespace

int main() {
  btHydroelasticCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btHydroelasticMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
  hydroConfigureSolverInfo(world.getSolverInfo());

  bool ok = true;
  const std::string broken = WriteTemp("broken.sdf", "<sdf version=\"1.9\"><world name=\"w\">\n<model name=\"m\">\n");
  btHydroelasticModelLoader refused;
  ok = ok && !broken.empty() && !refused.loadFile(broken.c_str(), &world) &&
       std::strstr(refused.getErrors(), (broken + ":").c_str()) != nullptr && world.getNumCollisionObjects() == 0;

  const std::string path = WriteTemp("box_on_ground.sdf", kScene);
  btHydroelasticModelLoader loader;
  if (!loader.loadFile(path.c_str(), &world)) {
    std::printf("load_model: %s", loader.getErrors());
    return 1;
  }
  world.setGravity(loader.getGravity());
  const btScalar dt = loader.getStepSize();
  for (int i = 0; i < static_cast<int>(std::lround(1 / dt)); ++i) {
    loader.applyJointDamping();
    world.stepSimulation(dt, 0, dt);
  }
  const int box = loader.findBody("box::body");
  const std::vector<btHydroelasticContactPatch> patches = hydroGetContactPatches(&dispatcher, dt);
  const btScalar up = patches.size() == 1 ? std::abs(patches[0].m_forceOnBody0.z()) : 0;
  const btScalar z = box >= 0 ? loader.getLinkWorldTransform(box).getOrigin().z() : 0;
  std::printf(
      "load_model (%s): %d bodies, step %.4f s, %zu patch(es) carrying %.4f N (weight 9.81 N), box at z = %.6f m; "
      "broken file refused: %s",
      sizeof(btScalar) == sizeof(double) ? "double" : "float", loader.getNumBodies(), dt, patches.size(), up, z,
      refused.getErrors());
  ok = ok && loader.getNumBodies() == 2 && box >= 0 && std::abs(dt - 0.001) < 1e-6 &&
       std::abs(up - 9.81) < 0.02 * 9.81 && std::abs(z - 0.05) < 1e-3;
  std::remove(path.c_str());
  std::remove(broken.c_str());
  return ok ? 0 : 1;
}
