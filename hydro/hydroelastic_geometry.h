#pragma once
// The geometry kinds that take part in pressure-field contact, each immutable and built once in
// its own frame (mesh, field and BVH), then shared by every body that uses it.
//
//   CompliantMesh      tet mesh + linear pressure field p0 = E·e      (004 §VI-A)
//   CompliantHalfSpace z ≤ 0 in its frame, p0 = E·depth/H, no mesh    (001 App. B)
//   RigidMesh          closed triangle surface, outward normals       (001 §5.0.1)
//   RigidHalfSpace     z ≤ 0 in its frame
#include <memory>

#include "hydro/bvh.h"
#include "hydro/pressure_field.h"
#include "hydro/surface_mesh.h"
#include "hydro/volume_mesh.h"

namespace hydro {

class CompliantMesh {
 public:
  explicit CompliantMesh(PressureField field) : field_(std::move(field)), bvh_(field_.mesh(), &field_.tet_ranges()) {}
  const VolumeMesh& mesh() const { return field_.mesh(); }
  const PressureField& field() const { return field_; }
  const Bvh& bvh() const { return bvh_; }

 private:
  PressureField field_;
  Bvh bvh_;
};

class CompliantHalfSpace {
 public:
  // p0 = modulus·depth/slab_thickness below the plane z = 0 of the half-space's frame H.
  CompliantHalfSpace(double modulus_Pa, double slab_thickness_m)
      : modulus_Pa_(modulus_Pa), slab_thickness_m_(slab_thickness_m) {
    CheckPositive(modulus_Pa, "CompliantHalfSpace: hydroelastic modulus");
    CheckPositive(slab_thickness_m, "CompliantHalfSpace: slab thickness");
  }
  double modulus() const { return modulus_Pa_; }
  double slab_thickness() const { return slab_thickness_m_; }
  // |∇p0| (Pa/m); ∇p0 = −gradient_magnitude()·ẑ_H.
  double gradient_magnitude() const { return modulus_Pa_ / slab_thickness_m_; }

 private:
  double modulus_Pa_;
  double slab_thickness_m_;
};

class RigidMesh {
 public:
  explicit RigidMesh(TriangleSurfaceMesh mesh) : mesh_(std::move(mesh)), bvh_(mesh_) {}
  const TriangleSurfaceMesh& mesh() const { return mesh_; }
  const Bvh& bvh() const { return bvh_; }

 private:
  TriangleSurfaceMesh mesh_;
  Bvh bvh_;
};

// The solid z ≤ 0 of its frame H; outward normal +ẑ_H.
struct RigidHalfSpace {};

}  // namespace hydro
