#pragma once
// What a Bullet user attaches to a btCollisionShape to make it take part in pressure-field
// contact (DESIGN §3 "Marking shapes"). Compliance belongs to the shape: built once, shared by
// every object that uses it. Friction stays on btCollisionObject, as in Bullet.
#include <LinearMath/btScalar.h>

#include <memory>

namespace hydro {
struct VolumeMeshWithExtent;
}

struct btHydroelasticProperties {
  enum Kind {
    // Pressure field p0 = E·e over the shape's volume (004 §VI-A).
    COMPLIANT,
    // A rigid surface in hydroelastic contact with compliant shapes (its triangle mesh is built
    // once). Untagged shapes are treated as rigid when they touch a compliant one.
    RIGID,
  };
  // The modulus a compliant shape gets unless told otherwise (Pa), as model files give it.
  static constexpr double kDefaultHydroelasticModulus = 1e7;

  Kind m_kind{COMPLIANT};
  // Hydroelastic modulus E (Pa) of p0 = E·e. Required (> 0) for COMPLIANT.
  btScalar m_hydroelasticModulus{btScalar(kDefaultHydroelasticModulus)};
  // Target edge length of the generated mesh (m). 0 picks 1/8 of the shape's smallest dimension
  // (1/4 for a box or a convex hull, whose fields are exact on any mesh), but at least 1/16 of its
  // largest, and coarsens a default mesh that would exceed the tet cap
  // (adapters/shape_geometry.cc); 001 §5.0.1: compliant meshes only need to follow the nominal
  // shape.
  btScalar m_resolutionHint{0};
  // Hunt–Crossley dissipation d (s/m): p = p0·max(1 − d·vn, 0) (001 eq. 5.12).
  btScalar m_huntCrossleyDissipation{0};
  // For a compliant btStaticPlaneShape: the slab thickness H of p0 = E·depth/H (m).
  btScalar m_slabThickness{0};
  // Nonlinear stiffening k of M(e) = E/(1 − k·e), 0 ≤ k < 1 (001 eq. 5.4).
  btScalar m_stiffening{0};
  // At most this many solver points per patch that involves the shape (0: all of them), twice
  // as many for a pair that takes its patch at the present poses and a step ahead together
  // (plugin/README.md, speculative patches). Each kept point carries a cluster's total stiffness
  // and force at its force centroid, so the patch's net force, moment and stiffness are kept
  // (hydro/point_reduction.h).
  int m_maxPatchPoints{0};
  // A user tet mesh (with extent) for shapes that have no volume of their own, such as a
  // btBvhTriangleMeshShape made compliant. In the shape's frame.
  std::shared_ptr<const hydro::VolumeMeshWithExtent> m_volumeMesh;
};

// The compliant point-contact material of seed 003, for shapes that should keep Bullet's points
// but make them compliant (Hunt–Crossley).
struct btPointContactMaterial {
  btScalar m_youngsModulus{1e8};          // Pa
  btScalar m_dissipation{0.32};           // s/m
  btScalar m_characteristicRadius{0.01};  // m: k = 2·E·R (003)
};
