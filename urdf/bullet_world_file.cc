#include "urdf/bullet_world_file.h"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>
#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraint.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>

#include "adapters/shape_registry.h"
#include "urdf/bullet_file_check.h"
#include "urdf/bullet_file_probe.h"
#include "urdf/multibody_world_importer.h"

namespace hydro {
namespace urdf {
namespace {

// The file's bytes, if they have the layout Bullet's reader expects (bullet_file_check.h) and
// the reader gets through them in a child process (bullet_file_probe.h).
bool ReadBulletFile(const std::string& path, std::vector<char>* bytes, std::string* problem,
                    std::vector<std::string>* notes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *problem = "cannot read the file";
    return false;
  }
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (bytes->size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    *problem = "the file is larger than Bullet's reader takes (2 GB)";
    return false;
  }
  return CheckBulletFileLayout(bytes->data(), bytes->size(), problem, notes) && ProbeBulletFileInChild(*bytes, problem);
}

void TagShape(const btCollisionShape* shape, const ContactProperties& contact, std::set<const btCollisionShape*>* done,
              std::vector<const btCollisionShape*>* tagged) {
  if (shape->getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
    const auto* compound = static_cast<const btCompoundShape*>(shape);
    for (int i = 0; i < compound->getNumChildShapes(); ++i) TagShape(compound->getChildShape(i), contact, done, tagged);
    return;
  }
  if (!done->insert(shape).second) return;  // a shape shared by several bodies is tagged once
  hydro::bullet::ShapeRegistry::Instance().SetHydroelastic(shape, HydroelasticProperties(contact));
  tagged->push_back(shape);
}

}  // namespace

bool IsBulletWorldFile(const std::string& path) {
  return path.size() > 7 && path.compare(path.size() - 7, 7, ".bullet") == 0;
}

std::string ShapeTypeOf(const btCollisionShape& shape) {
  switch (shape.getShapeType()) {
    case BOX_SHAPE_PROXYTYPE:
      return "box";
    case SPHERE_SHAPE_PROXYTYPE:
      return "sphere";
    case CAPSULE_SHAPE_PROXYTYPE:
      return "capsule";
    case CYLINDER_SHAPE_PROXYTYPE:
      return "cylinder";
    case CONE_SHAPE_PROXYTYPE:
      return "cone";
    case CONVEX_HULL_SHAPE_PROXYTYPE:
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE:
      return "convex";
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
    case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE:
    case GIMPACT_SHAPE_PROXYTYPE:
      return "mesh";
    case STATIC_PLANE_PROXYTYPE:
      return "plane";
    case COMPOUND_SHAPE_PROXYTYPE:
      return "compound";
    default:
      return shape.getName() ? shape.getName() : "unknown";
  }
}

std::unique_ptr<BuiltScene> LoadBulletWorldFile(const std::string& path, btMultiBodyDynamicsWorld* world,
                                                const std::vector<ComplianceRule>& rules, bool patch_contact,
                                                Diagnostics* diagnostics) {
  std::string problem;
  std::vector<char> bytes;
  std::vector<std::string> notes;
  if (!ReadBulletFile(path, &bytes, &problem, &notes)) {
    diagnostics->Error(path, 0, problem);
    return nullptr;
  }
  for (const std::string& note : notes) diagnostics->Warning(path, 0, note);
  auto built = std::make_unique<BuiltScene>();
  built->world_ = world;
  const int objects_before = world->getNumCollisionObjects();
  const int multibodies_before = world->getNumMultibodies();
  built->importer_ = std::make_unique<MultiBodyWorldImporter>(world);
  // Bullet's reader swaps the buffer's bytes in place; it is ours, and copied out before it goes.
  if (!built->importer_->loadFileFromMemory(bytes.data(), static_cast<int>(bytes.size()))) {
    built->importer_->deleteAllData();
    built->importer_.reset();
    diagnostics->Error(path, 0,
                       "Bullet's importer could not read the file (a damaged file, or a version it does not know)");
    return nullptr;
  }
  btWorldImporter& importer = *built->importer_;
  auto name_of = [&](const void* pointer) -> std::string {
    const char* name = importer.getNameForPointer(pointer);
    return name && *name ? name : "";
  };
  // Multibodies first, so that their colliders can be named after them. Bullet's importer frees
  // only rigid bodies, shapes and constraints (btWorldImporter::deleteAllData); the multibodies
  // and their link colliders it made are ours to remove and free.
  std::map<const btMultiBody*, std::string> multibody_names;
  for (int m = multibodies_before; m < world->getNumMultibodies(); ++m) {
    btMultiBody* mb = world->getMultiBody(m);
    built->multibodies_.emplace_back(mb);
    std::string name = name_of(mb);
    if (name.empty() && mb->getBaseName() && *mb->getBaseName()) name = mb->getBaseName();
    if (name.empty()) name = "multibody" + std::to_string(m - multibodies_before);
    multibody_names[mb] = name;
  }
  std::set<std::string> used;
  auto unique = [&](std::string name) {
    const std::string stem = name;
    for (int k = 2; !used.insert(name).second; ++k) name = stem + "_" + std::to_string(k);
    return name;
  };
  int unnamed = 0;
  for (int i = objects_before; i < world->getNumCollisionObjects(); ++i) {
    btCollisionObject* object = world->getCollisionObjectArray()[i];
    BuiltBody body;
    body.collider = object;
    if (btRigidBody* rigid = btRigidBody::upcast(object)) {
      body.rigid_body = rigid;
      std::string name = name_of(rigid);
      body.name = unique(name.empty() ? "body" + std::to_string(unnamed++) : name);
      body.model = body.name;
      body.is_static = rigid->isStaticOrKinematicObject();
    } else if (auto* link = btMultiBodyLinkCollider::upcast(object)) {
      built->colliders_.emplace_back(link);
      body.multibody = link->m_multiBody;
      body.link_index = link->m_link;
      body.model = multibody_names.count(link->m_multiBody) ? multibody_names[link->m_multiBody] : "multibody";
      std::string link_name = "base";
      if (link->m_link >= 0) {
        const char* n = link->m_multiBody->getLink(link->m_link).m_linkName;
        link_name = n && *n ? n : "link" + std::to_string(link->m_link);
      }
      body.name = unique(body.model + "::" + link_name);
      body.is_static = link->m_link < 0 && link->m_multiBody->hasFixedBase();
    } else {
      body.name = unique(name_of(object).empty() ? "object" + std::to_string(unnamed++) : name_of(object));
      body.model = body.name;
      body.is_static = true;
    }
    built->bodies_.push_back(body);
  }
  if (patch_contact && !rules.empty()) {
    std::set<const btCollisionShape*> done;
    std::vector<bool> used_rule(rules.size(), false);
    for (const BuiltBody& body : built->bodies_) {
      const btCollisionShape* shape = body.collider->getCollisionShape();
      if (!shape) continue;
      const ComplianceRule* rule = MatchComplianceRule(rules, {body.name, ShapeTypeOf(*shape), body.is_static});
      if (!rule) continue;
      used_rule[rule - rules.data()] = true;
      if (rule->compliance == Compliance::kNone) continue;
      ContactProperties contact;
      contact.compliance = rule->compliance;
      contact.hydroelastic_modulus_Pa = rule->hydroelastic_modulus_Pa;
      contact.mesh_resolution_hint_m = rule->mesh_resolution_hint_m;
      contact.hunt_crossley_dissipation_s_per_m = rule->hunt_crossley_dissipation_s_per_m;
      contact.slab_thickness_m = rule->slab_thickness_m;
      try {
        TagShape(shape, contact, &done, &built->tagged_);
      } catch (const InvalidInput& e) {
        diagnostics->Error(rule->where.file, rule->where.line, "body '" + body.name + "': " + e.what());
        return nullptr;
      }
    }
    // The importer found the file's contacts (syncContactManifolds) before the shapes were
    // tagged, so those pairs hold Bullet's own algorithms: drop them to have them made anew.
    btOverlappingPairCache* pairs = world->getBroadphase()->getOverlappingPairCache();
    for (const BuiltBody& body : built->bodies_)
      if (body.collider->getBroadphaseHandle())
        pairs->cleanProxyFromPairs(body.collider->getBroadphaseHandle(), world->getDispatcher());
    for (size_t r = 0; r < rules.size(); ++r)
      if (!used_rule[r] && rules[r].selector != "static" && rules[r].selector != "dynamic")
        diagnostics->Warning(rules[r].where.file, rules[r].where.line,
                             "rule '" + rules[r].selector + "' matches no body of " + path);
  }
  return built;
}

}  // namespace urdf
}  // namespace hydro
