#pragma once
// The contact surface between geometries A and B (004 §VI-B, 001 §5.0.2): a set of planar convex
// polygons, each with a linear pressure p0, expressed in the world frame W. The unit normal
// nhat_BA_W points out of B into A, so the pressure pushes A along +nhat and B along −nhat.
//
// Storage is flat (one vertex array, polygons as ranges) so that a surface can be cleared and
// refilled every step without allocating once its buffers have grown.
#include <limits>
#include <vector>

#include "hydro/buffers.h"
#include "hydro/math.h"

namespace hydro {

struct ContactPolygon {
  int first_vertex{0};  // into ContactSurface::vertices()
  int num_vertices{0};  // ≥ 3, counter-clockwise about nhat_BA_W
  Vector3 nhat_BA_W{Vector3::UnitZ()};
  double area_m2{0};
  Vector3 p_WC{Vector3::Zero()};  // area centroid
  double pressure_at_centroid_Pa{0};
  // Rates of increase of each side's pressure into its own body along the normal (Pa/m):
  //   gA = ∇pA·nhat_BA_W,  gB = −∇pB·nhat_BA_W  (000 §IV-A, eqs. 17–18).
  // +infinity for a rigid side. Both are positive for a well-posed polygon.
  double grad_A_Pa_per_m{std::numeric_limits<double>::infinity()};
  double grad_B_Pa_per_m{std::numeric_limits<double>::infinity()};
  // The elements that produced the polygon (tet or triangle index; -1 for a half-space), the
  // key used to carry warm-start data across steps. A box's closed-form surface names a surface
  // element of the piece's grid cell instead (hydro/box_surface_grid.h): of the same face region,
  // so with the same gradient, but not always the tet the piece lies in.
  int element_A{-1};
  int element_B{-1};
};

class ContactSurface {
 public:
  ContactSurface() = default;
  ContactSurface(const ContactSurface&) = default;
  ContactSurface(ContactSurface&&) = default;
  ContactSurface& operator=(ContactSurface&&) = default;
  // Copies into the buffers this surface has, grown geometrically (a surface kept for reuse is
  // overwritten every few steps by one a little larger or smaller: hydro/buffers.h).
  ContactSurface& operator=(const ContactSurface& other) {
    CopyGrowing(&vertices_, other.vertices_);
    CopyGrowing(&pressures_, other.pressures_);
    CopyGrowing(&polygons_, other.polygons_);
    return *this;
  }

  void Clear() {
    vertices_.clear();
    pressures_.clear();
    polygons_.clear();
  }
  bool empty() const { return polygons_.empty(); }
  int num_polygons() const { return static_cast<int>(polygons_.size()); }
  const std::vector<ContactPolygon>& polygons() const { return polygons_; }
  const ContactPolygon& polygon(int i) const { return polygons_[i]; }
  const std::vector<Vector3>& vertices() const { return vertices_; }
  const std::vector<double>& pressures() const { return pressures_; }
  const Vector3& vertex(const ContactPolygon& poly, int i) const { return vertices_[poly.first_vertex + i]; }
  double pressure(const ContactPolygon& poly, int i) const { return pressures_[poly.first_vertex + i]; }

  double CalcTotalArea() const;
  // ∫ p0 nhat dA: the elastic force on A, exact for linear pressures (000 eq. 11–12).
  Vector3 CalcElasticForceOnA() const;
  // ∫ p0·r dA with r the position in W: the first moment of the pressure, exact for linear
  // pressure over planar polygons. The elastic moment of the pressure on A about W's origin is
  // this × nhat (per polygon), and this / ∫ p0 dA is the centre of pressure.
  Vector3 CalcPressureFirstMoment() const;
  // ∫ p0 (r × nhat) dA: the moment about W's origin of the elastic force on A.
  Vector3 CalcElasticMomentOnA() const;
  // ∫ p0 dA.
  double CalcPressureIntegral() const;
  // Largest vertex pressure, 0 when empty.
  double CalcMaxPressure() const;

  // Appends a polygon from n ≥ 3 vertices (CCW about nhat_BA_W) and their pressures (fewer is a
  // caller's bug: InternalError). Computes area,
  // centroid and centroid pressure (exact for a linear field). Polygons whose area is below
  // `min_area` are dropped (they carry no force); returns whether the polygon was kept.
  bool AddPolygon(const Vector3* p_WV, const double* pressure, int n, const Vector3& nhat_BA_W, double grad_A,
                  double grad_B, int element_A, int element_B, double min_area = 0.0);

  // Room for this many polygons and vertices without allocating.
  void Reserve(int num_polygons, int num_vertices) {
    polygons_.reserve(num_polygons);
    vertices_.reserve(num_vertices);
    pressures_.reserve(num_vertices);
  }

  // Appends every polygon of `other`, in order, as AddPolygon appended them there.
  void Append(const ContactSurface& other);

  // Swaps the roles of A and B: flips normals and exchanges gradients and element ids.
  void SwapAB();

  // Moves the whole surface rigidly by X (vertices, centroids and normals; pressures kept): the
  // surface of a pair whose relative pose has not changed, carried with one of its bodies.
  void TransformBy(const RigidTransform& X);

 private:
  std::vector<Vector3> vertices_;
  std::vector<double> pressures_;
  std::vector<ContactPolygon> polygons_;
};

// The copy-assignment above copies each member by hand (to keep the target's buffers): a member
// added to ContactSurface must be added there too, and this fails until the sizes are updated.
static_assert(sizeof(ContactSurface) ==
                  sizeof(std::vector<Vector3>) + sizeof(std::vector<double>) + sizeof(std::vector<ContactPolygon>),
              "ContactSurface gained a member: copy it in operator=(const ContactSurface&)");

}  // namespace hydro
