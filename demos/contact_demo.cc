// The main job: a compliant ball pressed into a rigid box. Computes the contact surface with the
// hydroelastic core and prints it next to the closed form F = (π/3)·E·d²·(3 − 2d/R).
#include <cstdio>
#include <exception>

#include "hydro/contact_surface_calculator.h"
#include "hydro/make_meshes.h"
#include "hydro/point_approximation.h"

int main() {
  using namespace hydro;
  try {
    const double radius = 0.05;      // m
    const double modulus = 1e5;      // Pa (hydroelastic modulus of a soft rubber ball)
    const double depth = 0.01;       // m, how far the ball is pressed into the box
    const double hint = radius / 8;  // m, target edge length
    const CompliantMesh ball = MakeCompliantMesh(MakeSphereVolumeMesh(radius, hint), modulus);
    const RigidMesh box(MakeBoxSurfaceMesh(Vector3(0.3, 0.3, 0.1), 0.05));  // top face at z = 0.05

    RigidTransform X_WBall = RigidTransform::Identity();
    X_WBall.translation() = Vector3(0.0, 0.0, 0.05 + radius - depth);
    ContactSurface surface;
    CalcContactSurface(ball, X_WBall, box, RigidTransform::Identity(), &surface);

    const Vector3 force = surface.CalcElasticForceOnA();
    const double exact = M_PI / 3.0 * modulus * depth * depth * (3.0 - 2.0 * depth / radius);
    double pressure_weight = 0;
    Vector3 center_of_pressure = Vector3::Zero();
    for (const ContactPolygon& poly : surface.polygons()) {
      pressure_weight += poly.area_m2 * poly.pressure_at_centroid_Pa;
      center_of_pressure += poly.area_m2 * poly.pressure_at_centroid_Pa * poly.p_WC;
    }
    center_of_pressure /= pressure_weight;

    std::vector<ContactPoint> points;
    MakeContactPoints(surface, &points);
    double stiffness = 0;
    for (const ContactPoint& point : points) stiffness += point.stiffness_N_per_m;

    std::printf(
        "HydroBullet contact demo: compliant ball (R = %.3f m, E = %.3g Pa, %d tets) pressed %.3f m "
        "into a rigid box\n",
        radius, modulus, ball.mesh().num_tets(), depth);
    std::printf("  polygons            %d\n", surface.num_polygons());
    std::printf("  area                %.6e m^2 (flat disk of the same depth: %.6e m^2)\n", surface.CalcTotalArea(),
                M_PI * (2 * radius * depth - depth * depth));
    std::printf("  force on ball       [%.6f, %.6f, %.6f] N\n", force.x(), force.y(), force.z());
    std::printf("  closed form         %.6f N   (relative error %+.3f%%)\n", exact, 100 * (force.z() / exact - 1));
    std::printf("  max pressure        %.6e Pa\n", surface.CalcMaxPressure());
    std::printf("  centre of pressure  [%.6f, %.6f, %.6f] m\n", center_of_pressure.x(), center_of_pressure.y(),
                center_of_pressure.z());
    std::printf("  solver points       %zu (one per polygon, 000 §IV), total stiffness %.6e N/m\n", points.size(),
                stiffness);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hydro_contact_demo: %s\n", e.what());
    return 1;
  }
}
