#include "fem/btHydroelasticDeformables.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "adapters/bullet_conversions.h"
#include "fem/btDeformableBodies.h"
#include "fem/fem_body.h"
#include "hydro/make_box_mesh.h"
#include "hydro/math.h"
#include "hydro/volume_mesh.h"

using hydro::RigidTransform;
using hydro::Tet;
using hydro::Vector3;
using hydro::bullet::ToBullet;
using hydro::bullet::ToEigen;
using hydro::bullet::ToRigidTransform;
using hydro::fem::FemBody;

struct btHydroelasticDeformables::Impl {
  explicit Impl(btDiscreteDynamicsWorld* world) : stepper(world) {}

  // The body at `index`, or null with an error naming `function`.
  FemBody* Find(int index, const char* function) {
    if (index >= 0 && index < static_cast<int>(bodies.size())) return bodies[index].get();
    Error(std::string("btHydroelasticDeformables::") + function + ": no body " + std::to_string(index) + " (" +
          std::to_string(bodies.size()) + " added)");
    return nullptr;
  }
  // Whether `vertex` is a vertex of `body`, else an error.
  bool HasVertex(const FemBody& body, int vertex, const char* function) {
    if (vertex >= 0 && vertex < body.num_vertices()) return true;
    Error(std::string("btHydroelasticDeformables::") + function + ": deformable '" + body.name() + "' has no vertex " +
          std::to_string(vertex) + " (" + std::to_string(body.num_vertices()) + " vertices)");
    return false;
  }
  void Error(const std::string& message) { errors += message + "\n"; }

  // Makes the body, adds it to the stepper; its index or -1 with the error.
  int Add(const char* name, std::vector<Vector3> vertices, std::vector<Tet> tets,
          const btHydroelasticDeformableMaterial& material, btScalar friction) {
    try {
      hydro::fem::Material m;
      m.youngs_modulus_Pa = material.m_youngsModulus;
      m.poisson_ratio = material.m_poissonRatio;
      m.density_kg_per_m3 = material.m_density;
      m.mass_damping_1_per_s = material.m_massDamping;
      m.stiffness_damping_s = material.m_stiffnessDamping;
      switch (material.m_model) {
        case btHydroelasticDeformableMaterial::LINEAR:
          m.model = hydro::fem::MaterialModel::kLinear;
          break;
        case btHydroelasticDeformableMaterial::COROTATIONAL:
          m.model = hydro::fem::MaterialModel::kCorotational;
          break;
        case btHydroelasticDeformableMaterial::NEO_HOOKEAN:
          m.model = hydro::fem::MaterialModel::kNeoHookean;
          break;
        default:
          throw hydro::InvalidInput("deformable '" + std::string(name) + "': unknown material model");
      }
      auto body = std::make_unique<FemBody>(name, std::move(vertices), std::move(tets), m);
      stepper.addBody(body.get(), friction);
      bodies.push_back(std::move(body));
      return static_cast<int>(bodies.size()) - 1;
    } catch (const std::exception& e) {
      Error(e.what());
      return -1;
    }
  }

  std::vector<std::unique_ptr<FemBody>> bodies;  // in the order added: the index is the handle
  btDeformableBodies stepper;                    // declared after the bodies: destroyed before them
  std::string errors;
};

btHydroelasticDeformables::btHydroelasticDeformables(btDiscreteDynamicsWorld* world) : m_impl(new Impl(world)) {}

btHydroelasticDeformables::~btHydroelasticDeformables() { delete m_impl; }

int btHydroelasticDeformables::addTetMesh(const char* name, const btVector3* vertices, int numVertices,
                                          const int* tetIndices, int numTets,
                                          const btHydroelasticDeformableMaterial& material, btScalar friction) {
  const std::string label = name ? name : "";
  if (numVertices < 4 || numTets < 1 || !vertices || !tetIndices) {
    m_impl->Error("btHydroelasticDeformables::addTetMesh: deformable '" + label +
                  "' needs at least 4 vertices and 1 tet (" + std::to_string(numVertices) + " vertices, " +
                  std::to_string(numTets) + " tets given)");
    return -1;
  }
  std::vector<Vector3> p(numVertices);
  for (int i = 0; i < numVertices; ++i) p[i] = ToEigen(vertices[i]);
  std::vector<Tet> tets(numTets);
  for (int t = 0; t < numTets; ++t) {
    Tet& tet = tets[t];
    for (int k = 0; k < 4; ++k) tet[k] = tetIndices[4 * t + k];
    // Either orientation is accepted: a tet of negative volume is the positive one with two corners
    // swapped. Bad indices are left for the core to report; so are flat tets, whose tiny volume
    // stays below the core's threshold with either sign.
    bool indices_valid = true;
    for (int k = 0; k < 4; ++k) indices_valid = indices_valid && tet[k] >= 0 && tet[k] < numVertices;
    if (indices_valid && hydro::SignedTetVolume(p[tet[0]], p[tet[1]], p[tet[2]], p[tet[3]]) < 0)
      std::swap(tet[2], tet[3]);
  }
  return m_impl->Add(label.c_str(), std::move(p), std::move(tets), material, friction);
}

int btHydroelasticDeformables::addBox(const char* name, const btVector3& halfExtents, const btTransform& pose,
                                      btScalar resolution, const btHydroelasticDeformableMaterial& material,
                                      btScalar friction) {
  const std::string label = name ? name : "";
  std::vector<Vector3> vertices;
  std::vector<Tet> tets;
  try {
    for (int axis = 0; axis < 3; ++axis)
      hydro::CheckPositive(halfExtents[axis], "btHydroelasticDeformables::addBox: half extent of '" + label + "'");
    hydro::CheckPositive(resolution, "btHydroelasticDeformables::addBox: resolution of '" + label + "'");
    // The mesh's size from its cell and shell counts (hydro/make_box_mesh.cc), in double so that a
    // tiny resolution overflows nothing; no vertex is made before the cap is checked.
    const Vector3 size = 2 * ToEigen(halfExtents);
    const double h = resolution;
    const double layers = std::max(1.0, std::ceil(0.5 * size.minCoeff() / h - 1e-9));
    double cells[3];
    for (int axis = 0; axis < 3; ++axis) cells[axis] = std::max(1.0, std::ceil(size[axis] / h - 1e-9));
    const double max_tets = 12 * layers * (cells[0] * cells[1] + cells[1] * cells[2] + cells[2] * cells[0]);
    if (!(max_tets <= MAX_BOX_TETS)) {
      std::ostringstream message;
      message << "btHydroelasticDeformables::addBox: box '" << label << "' (half extents " << halfExtents.x() << " x "
              << halfExtents.y() << " x " << halfExtents.z() << " m) at resolution " << resolution
              << " m would need up to " << std::fixed << std::setprecision(0) << max_tets << " tets (" << cells[0]
              << " x " << cells[1] << " x " << cells[2] << " cells, " << layers << " shells); the limit is "
              << MAX_BOX_TETS << ": use a coarser resolution";
      throw hydro::InvalidInput(message.str());
    }
    const RigidTransform X_WB = ToRigidTransform(pose);
    hydro::CheckPose(X_WB, "btHydroelasticDeformables::addBox: pose");
    const hydro::VolumeMeshWithExtent box = hydro::MakeBoxVolumeMesh(size, resolution);
    for (const Vector3& p_BV : box.mesh->vertices()) vertices.push_back(X_WB * p_BV);
    tets = box.mesh->tets();
  } catch (const std::exception& e) {
    m_impl->Error(e.what());
    return -1;
  }
  return m_impl->Add(label.c_str(), std::move(vertices), std::move(tets), material, friction);
}

const char* btHydroelasticDeformables::getErrors() const { return m_impl->errors.c_str(); }

void btHydroelasticDeformables::clearErrors() { m_impl->errors.clear(); }

int btHydroelasticDeformables::getNumBodies() const { return static_cast<int>(m_impl->bodies.size()); }

const char* btHydroelasticDeformables::getBodyName(int body) const {
  const FemBody* b = m_impl->Find(body, "getBodyName");
  return b ? b->name().c_str() : "";
}

int btHydroelasticDeformables::getNumVertices(int body) const {
  const FemBody* b = m_impl->Find(body, "getNumVertices");
  return b ? b->num_vertices() : 0;
}

int btHydroelasticDeformables::getNumTets(int body) const {
  const FemBody* b = m_impl->Find(body, "getNumTets");
  return b ? b->num_tets() : 0;
}

bool btHydroelasticDeformables::getTet(int body, int tet, int vertexIndices[4]) const {
  const FemBody* b = m_impl->Find(body, "getTet");
  if (!b) return false;
  if (tet < 0 || tet >= b->num_tets()) {
    m_impl->Error("btHydroelasticDeformables::getTet: deformable '" + b->name() + "' has no tet " +
                  std::to_string(tet));
    return false;
  }
  for (int k = 0; k < 4; ++k) vertexIndices[k] = b->tets()[tet][k];
  return true;
}

btVector3 btHydroelasticDeformables::getVertexPosition(int body, int vertex) const {
  const FemBody* b = m_impl->Find(body, "getVertexPosition");
  if (!b || !m_impl->HasVertex(*b, vertex, "getVertexPosition")) return btVector3(0, 0, 0);
  return ToBullet(b->position(vertex));
}

btVector3 btHydroelasticDeformables::getVertexVelocity(int body, int vertex) const {
  const FemBody* b = m_impl->Find(body, "getVertexVelocity");
  if (!b || !m_impl->HasVertex(*b, vertex, "getVertexVelocity")) return btVector3(0, 0, 0);
  return ToBullet(b->velocity(vertex));
}

btVector3 btHydroelasticDeformables::getCenterOfMass(int body) const {
  const FemBody* b = m_impl->Find(body, "getCenterOfMass");
  return b ? ToBullet(b->CalcCenterOfMass()) : btVector3(0, 0, 0);
}

btVector3 btHydroelasticDeformables::getLinearVelocity(int body) const {
  const FemBody* b = m_impl->Find(body, "getLinearVelocity");
  return b ? ToBullet(b->CalcMeanVelocity()) : btVector3(0, 0, 0);
}

btScalar btHydroelasticDeformables::getMass(int body) const {
  const FemBody* b = m_impl->Find(body, "getMass");
  return b ? b->CalcMass() : 0;
}

bool btHydroelasticDeformables::setVelocity(int body, const btVector3& linear, const btVector3& angular) {
  FemBody* b = m_impl->Find(body, "setVelocity");
  if (!b) return false;
  try {
    const Vector3 v = ToEigen(linear), w = ToEigen(angular);
    if (!v.allFinite() || !w.allFinite())
      throw hydro::InvalidInput("btHydroelasticDeformables::setVelocity: deformable '" + b->name() +
                                "': velocities must be finite");
    const Vector3 c = b->CalcCenterOfMass();
    Eigen::VectorXd velocities(3 * b->num_vertices());
    for (int i = 0; i < b->num_vertices(); ++i) velocities.segment<3>(3 * i) = v + w.cross(b->position(i) - c);
    b->SetState(b->q(), velocities);
    return true;
  } catch (const std::exception& e) {
    m_impl->Error(e.what());
    return false;
  }
}

bool btHydroelasticDeformables::fixVertex(int body, int vertex) {
  FemBody* b = m_impl->Find(body, "fixVertex");
  if (!b || !m_impl->HasVertex(*b, vertex, "fixVertex")) return false;
  b->FixVertex(vertex);
  return true;
}

bool btHydroelasticDeformables::attachVertex(int body, int vertex, btRigidBody* rigidBody, btScalar stiffness) {
  FemBody* b = m_impl->Find(body, "attachVertex");
  if (!b || !m_impl->HasVertex(*b, vertex, "attachVertex")) return false;
  try {
    m_impl->stepper.attachVertex(b, vertex, rigidBody, stiffness);
    return true;
  } catch (const std::exception& e) {
    m_impl->Error(e.what());
    return false;
  }
}

bool btHydroelasticDeformables::setTriangleFanContact(int body, bool enable) {
  FemBody* b = m_impl->Find(body, "setTriangleFanContact");
  if (!b) return false;
  m_impl->stepper.setTriangleFanContact(b, enable);
  return true;
}

bool btHydroelasticDeformables::setStictionSpeed(btScalar speed) {
  try {
    m_impl->stepper.setStictionSpeed(speed);
    return true;
  } catch (const std::exception& e) {
    m_impl->Error(e.what());
    return false;
  }
}

int btHydroelasticDeformables::getLastNumContacts() const { return m_impl->stepper.getLastNumContacts(); }

bool btHydroelasticDeformables::getLastSolveConverged() const {
  for (const hydro::fem::ContactSolveReport& report : m_impl->stepper.getLastReports())
    if (!report.converged) return false;
  return true;
}
