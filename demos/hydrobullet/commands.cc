#include "demos/hydrobullet/commands.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "demos/hydrobullet/json.h"
#include "demos/hydrobullet/simulation.h"
#include "demos/hydrobullet/vtk_series.h"
#ifdef HYDRO_BULLET_RENDER
#include "demos/hydrobullet/video.h"
#endif
#include "urdf/bullet_world_file.h"

namespace hydro {
namespace cli {

int Fail(const std::string& reason) {
  std::fprintf(stderr, "hydrobullet: %s\n", reason.c_str());
  return 1;
}

namespace {

std::string ModulusText(const urdf::Collision& collision) {
  const auto& c = collision.contact;
  if (c.compliance == urdf::Compliance::kCompliant)
    return "compliant, E = " + (c.hydroelastic_modulus_Pa ? JsonNumber(*c.hydroelastic_modulus_Pa) + " Pa" : "default");
  if (c.compliance == urdf::Compliance::kRigid) return "rigid hydroelastic";
  if (c.has_drake_compliance) return "point contact, E = " + JsonNumber(c.youngs_modulus_Pa) + " Pa";
  return "no compliance";
}

std::string GeometryText(const urdf::Geometry& g) {
  switch (g.type) {
    case urdf::GeometryType::kBox:
      return "box " + JsonVector(g.size);
    case urdf::GeometryType::kSphere:
      return "sphere r = " + JsonNumber(g.radius);
    case urdf::GeometryType::kCylinder:
      return "cylinder r = " + JsonNumber(g.radius) + ", l = " + JsonNumber(g.length);
    case urdf::GeometryType::kCapsule:
      return "capsule r = " + JsonNumber(g.radius) + ", l = " + JsonNumber(g.length);
    case urdf::GeometryType::kEllipsoid:
      return "ellipsoid " + JsonVector(g.size);
    case urdf::GeometryType::kPlane:
      return "plane n = " + JsonVector(g.normal);
    case urdf::GeometryType::kMesh:
      return "mesh " + g.mesh_path;
  }
  return "?";
}

// The one rule for what a --set NAME.pose=… or NAME.velocity=… can move, checked on the built scene
// for both properties alike. NAME is a model (all of its links follow) or one body `model::link`
// that the builder places or starts itself: a pose places a model, static or not, or a rigid body
// (a multibody's links follow their joints); a velocity starts a moving rigid body or a free
// multibody's base, and a model only through those. Returns "" when NAME is such a target, else the
// reason as "--set NAME.PROPERTY: … in FILE".
std::string CheckSetTarget(const urdf::BuiltScene& built, const std::string& file, const std::string& property,
                           const std::string& name) {
  const bool pose = property == "pose";
  auto takes = [&](const urdf::BuiltBody& body) {
    if (pose) return body.rigid_body != nullptr;
    if (body.is_static) return false;
    if (body.multibody) return body.link_index < 0 && !body.multibody->hasFixedBase();
    return body.rigid_body != nullptr;
  };
  const std::string where = "--set " + name + "." + property + ": ";
  bool is_model = false, model_takes = false;
  for (const urdf::BuiltBody& body : built.bodies()) {
    if (body.model != name) continue;
    is_model = true;
    model_takes |= pose || takes(body);
  }
  if (is_model) {
    if (model_takes) return "";
    return where + "model '" + name + "' is static or fixed-base in " + file + ": nothing to start";
  }
  const urdf::BuiltBody* body = built.Find(name);
  if (!body) return where + "no model or body named '" + name + "' in " + file;
  if (takes(*body)) return "";
  if (body->is_static || (body->multibody && body->multibody->hasFixedBase() && body->link_index < 0))
    return where + "body '" + name + "' is static in " + file + ": nothing to start";
  return where + "body '" + name + "' is a link of the multibody '" + body->model + "' in " + file + "; set " +
         body->model + "." + property + " instead";
}

// Loads the command line's file and checks its --set targets; warnings go to stderr, and so do
// errors, ending with the first.
bool LoadOrReport(const CommandLine& args, Simulation* simulation) {
  std::string errors, warnings;
  const bool loaded = LoadSimulation(args.file, args.read, args.build, args.rules, simulation, &errors, &warnings);
  std::cerr << warnings;
  if (!loaded) {
    std::cerr << errors;
    Fail(errors.substr(0, errors.find('\n')));
    return false;
  }
  std::string error;
  for (const auto& entry : args.build.poses)
    if (error.empty()) error = CheckSetTarget(*simulation->built, args.file, "pose", entry.first);
  for (const auto& entry : args.build.velocities)
    if (error.empty()) error = CheckSetTarget(*simulation->built, args.file, "velocity", entry.first);
  if (!error.empty()) {
    Fail(error);
    return false;
  }
  return true;
}

}  // namespace

bool LoadOrReportForCommand(const CommandLine& args, Simulation* simulation) { return LoadOrReport(args, simulation); }

// A .bullet world: its bodies as Bullet's importer made them, and what the rules make of them.
int InspectBulletWorld(const CommandLine& args) {
  Simulation simulation(/*plugin=*/true);
  if (!LoadOrReport(args, &simulation)) return 1;
  std::vector<std::string> bodies;
  if (!args.json)
    std::cout << args.file << ": " << simulation.built->bodies().size() << " bodies, "
              << simulation.world->getNumMultibodies() << " multibody(ies), " << simulation.world->getNumConstraints()
              << " constraint(s); gravity " << JsonVector(simulation.scene.gravity_W) << " m/s², step "
              << simulation.scene.step_size_s << " s\n";
  for (const urdf::BuiltBody& body : simulation.built->bodies()) {
    const btCollisionShape* shape = body.collider->getCollisionShape();
    const std::string type = shape ? urdf::ShapeTypeOf(*shape) : "none";
    double mass = 0;
    if (body.rigid_body && body.rigid_body->getInvMass() > 0) mass = 1 / body.rigid_body->getInvMass();
    if (body.multibody)
      mass = body.link_index < 0 ? body.multibody->getBaseMass() : body.multibody->getLinkMass(body.link_index);
    const urdf::ComplianceRule* rule = urdf::MatchComplianceRule(args.rules, {body.name, type, body.is_static});
    const urdf::Compliance compliance = rule ? rule->compliance : urdf::Compliance::kNone;
    std::string modulus = "null";
    if (compliance == urdf::Compliance::kCompliant)
      modulus = JsonNumber(rule->hydroelastic_modulus_Pa.value_or(kDefaultHydroelasticModulus));
    const Vector3 p = simulation.built->LinkPose(body).translation();
    if (args.json) {
      bodies.push_back(JsonObject({{"name", JsonString(body.name)},
                                   {"shape", JsonString(type)},
                                   {"mass", JsonNumber(mass)},
                                   {"static", body.is_static ? "true" : "false"},
                                   {"position", JsonVector(p)},
                                   {"compliance", JsonString(urdf::ComplianceName(compliance))},
                                   {"hydroelastic_modulus", modulus}}));
    } else {
      std::cout << "body " << body.name << ": " << type << ", "
                << (body.is_static ? "static" : JsonNumber(mass) + " kg") << " at " << JsonVector(p) << "; "
                << (compliance == urdf::Compliance::kCompliant ? "compliant, E = " + modulus + " Pa"
                    : compliance == urdf::Compliance::kRigid   ? "rigid hydroelastic"
                                                               : "Bullet's contact")
                << "\n";
    }
  }
  if (args.json) std::cout << JsonObject({{"bodies", JsonArray(bodies)}}) << "\n";
  return 0;
}

int Inspect(const CommandLine& args) {
  if (urdf::IsBulletWorldFile(args.file)) return InspectBulletWorld(args);
  urdf::Diagnostics diagnostics;
  auto scene = urdf::ReadModelFile(args.file, args.read, &diagnostics);
  if (!scene) {
    std::cerr << diagnostics.ToString();
    return Fail(diagnostics.FirstError());
  }
  if (!args.rules.empty()) urdf::ApplyComplianceRules(args.rules, &*scene);
  if (args.json) {
    std::vector<std::string> models;
    for (const urdf::Model& model : scene->models) {
      std::vector<std::string> links, joints;
      for (const urdf::Link& link : model.links) {
        std::vector<std::string> collisions;
        for (const urdf::Collision& c : link.collisions) {
          const auto& contact = c.contact;
          std::string modulus = "null";
          if (contact.compliance == urdf::Compliance::kCompliant)
            modulus = JsonNumber(contact.hydroelastic_modulus_Pa.value_or(kDefaultHydroelasticModulus));
          collisions.push_back(JsonObject({{"name", JsonString(c.name)},
                                           {"geometry", JsonString(urdf::GeometryTypeName(c.geometry.type))},
                                           {"compliance", JsonString(urdf::ComplianceName(contact.compliance))},
                                           {"hydroelastic_modulus", modulus}}));
        }
        links.push_back(JsonObject({{"name", JsonString(link.name)},
                                    {"mass", JsonNumber(link.inertial.mass_kg)},
                                    {"collisions", JsonArray(collisions)}}));
      }
      for (const urdf::Joint& joint : model.joints)
        joints.push_back(JsonObject({{"name", JsonString(joint.name)},
                                     {"type", JsonString(urdf::JointTypeName(joint.type))},
                                     {"parent", JsonString(joint.parent)},
                                     {"child", JsonString(joint.child)}}));
      models.push_back(
          JsonObject({{"name", JsonString(model.name)}, {"links", JsonArray(links)}, {"joints", JsonArray(joints)}}));
    }
    std::vector<std::string> deformables;
    for (const urdf::Deformable& d : scene->deformables)
      deformables.push_back(JsonObject({{"name", JsonString(d.name)},
                                        {"vertices", std::to_string(d.num_vertices)},
                                        {"tets", std::to_string(d.num_tets)}}));
    std::cout << JsonObject({{"models", JsonArray(models)}, {"deformables", JsonArray(deformables)}}) << "\n";
  } else {
    std::cout << args.file << ": " << scene->models.size() << " model(s), " << scene->deformables.size()
              << " deformable(s); gravity " << JsonVector(scene->gravity_W) << " m/s², step " << scene->step_size_s
              << " s\n";
    for (const urdf::Model& model : scene->models) {
      std::cout << "model " << model.name
                << (model.is_static    ? " (static)"
                    : model.fixed_base ? " (fixed base)"
                                       : " (free)")
                << " at " << JsonVector(model.X_WM.translation()) << "\n";
      for (const urdf::Link& link : model.links) {
        std::cout << "  link " << link.name << ": " << link.inertial.mass_kg << " kg, " << link.collisions.size()
                  << " collision(s)\n";
        for (const urdf::Collision& c : link.collisions)
          std::cout << "    " << c.name << ": " << GeometryText(c.geometry) << "; " << ModulusText(c) << "\n";
      }
      for (const urdf::Joint& joint : model.joints) {
        std::cout << "  joint " << joint.name << " (" << urdf::JointTypeName(joint.type) << "): " << joint.parent
                  << " -> " << joint.child;
        if (const auto& motor = joint.motor)
          std::cout << "; motor: max force " << motor->max_force << ", kp " << motor->kp << ", kd " << motor->kd << ", "
                    << motor->keyframes.size() << " keyframe(s) over " << motor->keyframes.front().time_s << "–"
                    << motor->keyframes.back().time_s << " s";
        std::cout << "\n";
      }
    }
    for (const urdf::Deformable& d : scene->deformables)
      std::cout << "deformable " << d.name << ": " << d.num_vertices << " vertices, " << d.num_tets
                << " tets, E = " << d.youngs_modulus_Pa << " Pa, nu = " << d.poisson_ratio
                << ", rho = " << d.mass_density_kg_per_m3 << " kg/m³"
                << (d.friction ? ", mu = " + JsonNumber(*d.friction) : "")
                << (d.triangle_fan_contact ? ", triangle-fan contact" : "") << "\n";
    if (scene->stiction_speed_m_per_s)
      std::cout << "deformables' stiction speed " << *scene->stiction_speed_m_per_s << " m/s\n";
  }
  std::cerr << diagnostics.ToString();  // warnings
  return 0;
}

int Contact(const CommandLine& args) {
  Simulation simulation(/*plugin=*/true);
  if (!LoadOrReport(args, &simulation)) return 1;
  simulation.world->performDiscreteCollisionDetection();
  const std::vector<PairReport> reports = ElasticPatchReports(simulation);
  if (args.json) {
    std::vector<std::string> pairs;
    for (const PairReport& r : reports)
      pairs.push_back(JsonObject({{"a", JsonString(r.a)},
                                  {"b", JsonString(r.b)},
                                  {"polygons", std::to_string(r.polygons)},
                                  {"area", JsonNumber(r.area_m2)},
                                  {"force", JsonVector(r.force_N)},
                                  {"torque", JsonVector(r.torque_Nm)},
                                  {"center_of_pressure", JsonVector(r.center_of_pressure_m)},
                                  {"max_pressure", JsonNumber(r.max_pressure_Pa)}}));
    std::cout << JsonObject({{"pairs", JsonArray(pairs)}}) << "\n";
  } else {
    if (reports.empty()) std::cout << "no patch contact in the initial configuration\n";
    for (const PairReport& r : reports)
      std::cout << r.a << " / " << r.b << ": " << r.polygons << " polygons, area " << r.area_m2 << " m², force on "
                << r.a << " " << JsonVector(r.force_N) << " N, torque " << JsonVector(r.torque_Nm)
                << " N·m, centre of pressure " << JsonVector(r.center_of_pressure_m) << ", max pressure "
                << r.max_pressure_Pa << " Pa\n";
  }
  return 0;
}

int Run(const CommandLine& args) {
  Simulation simulation(args.plugin);
  if (!LoadOrReport(args, &simulation)) return 1;
  std::string errors;
  const double dt = args.dt_s > 0 ? args.dt_s : simulation.scene.step_size_s;
  const double log_dt = args.log_dt_s > 0 ? args.log_dt_s : std::max(dt, 0.01);
#ifdef HYDRO_BULLET_RENDER
  std::unique_ptr<VideoRecorder> video;
  double next_frame = 0;
  if (!args.video_path.empty()) {
    const char* ffmpeg = std::getenv("HYDROBULLET_FFMPEG");
    if (!FindFfmpeg(ffmpeg ? ffmpeg : "ffmpeg", &errors)) return Fail(errors);
    const Camera camera = CommandCamera(args, simulation);
    video = std::make_unique<VideoRecorder>(ffmpeg ? ffmpeg : "ffmpeg", args.video_path, args.width_px, args.height_px,
                                            30, camera);
    if (!video->ok()) return Fail(video->error());
  }
  // A frame whenever simulated time reaches the next 1/30 s.
  auto record = [&](double t) {
    if (!video || t < next_frame - 1e-12) return true;
    next_frame += 1.0 / video->fps();
    return video->AddFrame(simulation, dt);
  };
#else
  if (!args.video_path.empty())
    return Fail("--video is not available: this build has HYDRO_BULLET_RENDER=OFF (no EGL/OpenGL)");
  auto record = [](double) { return true; };
#endif
  const long steps = std::lround(args.duration_s / dt);
  std::error_code ec;
  std::filesystem::create_directories(args.out_dir, ec);
  if (ec) return Fail("cannot create " + args.out_dir + ": " + ec.message());
  std::ofstream bodies_csv(args.out_dir + "/bodies.csv"), contacts_csv(args.out_dir + "/contacts.csv");
  if (!bodies_csv || !contacts_csv) return Fail("cannot write in " + args.out_dir);
  bodies_csv << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
  contacts_csv << "time,a,b,polygons,area,fx,fy,fz,tx,ty,tz,max_pressure,fn,cx,cy,cz\n";
  VtkSeries vtk(args.out_dir);
  char row[512];
  auto log_bodies = [&](double t) {
    for (const urdf::BuiltBody& body : simulation.built->bodies()) {
      const RigidTransform X = simulation.built->LinkPose(body);
      const Eigen::Quaterniond q(X.linear());
      Vector3 v, w;
      simulation.built->LinkVelocity(body, &v, &w);
      std::snprintf(row, sizeof(row), "%.6f,%s,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", t,
                    body.name.c_str(), X.translation().x(), X.translation().y(), X.translation().z(), q.w(), q.x(),
                    q.y(), q.z(), v.x(), v.y(), v.z(), w.x(), w.y(), w.z());
      bodies_csv << row;
    }
    // Deformables: centroid, identity orientation, mean velocity.
    for (const auto& d : simulation.deformables) {
      const Vector3 c = d->CalcCenterOfMass(), v = d->CalcMeanVelocity();
      std::snprintf(row, sizeof(row), "%.6f,%s,%.9g,%.9g,%.9g,1,0,0,0,%.9g,%.9g,%.9g,0,0,0\n", t, d->name().c_str(),
                    c.x(), c.y(), c.z(), v.x(), v.y(), v.z());
      bodies_csv << row;
    }
  };
  auto log_contacts = [&](double t) {
    for (const PairReport& r : SolverPairReports(simulation, dt)) {
      std::snprintf(row, sizeof(row), "%.6f,%s,%s,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", t,
                    r.a.c_str(), r.b.c_str(), r.polygons, r.area_m2, r.force_N.x(), r.force_N.y(), r.force_N.z(),
                    r.torque_Nm.x(), r.torque_Nm.y(), r.torque_Nm.z(), r.max_pressure_Pa, r.normal_force_N,
                    r.center_of_pressure_m.x(), r.center_of_pressure_m.y(), r.center_of_pressure_m.z());
      contacts_csv << row;
    }
  };
  const bool progress = ::isatty(STDERR_FILENO);
  log_bodies(0);
  if (!vtk.WriteFrame(simulation, 0, &errors)) return Fail(errors);
  if (!record(0)) return Fail("video: frame at t = 0 not written");
  const auto start = std::chrono::steady_clock::now();
  double next_log = log_dt;
  int last_percent = -1;
  for (long i = 1; i <= steps; ++i) {
    simulation.Step(dt);
    const double t = i * dt;
    if (t >= next_log - 1e-12 || i == steps) {
      next_log += log_dt;
      log_bodies(t);
      log_contacts(t);
      if (!vtk.WriteFrame(simulation, t, &errors)) return Fail(errors);
    }
    if (!record(t)) return Fail("video: frame at t = " + std::to_string(t) + " s not written");
    const int percent = static_cast<int>(100 * i / steps);
    if (progress && percent != last_percent) {
      last_percent = percent;
      std::fprintf(stderr, "\r[%-50s] %3d%%  t = %.3f s", std::string(percent / 2, '#').c_str(), percent, t);
    }
    // A body that left the finite world ends the run with a reason instead of NaN logs.
    for (const urdf::BuiltBody& body : simulation.built->bodies())
      if (!simulation.built->LinkPose(body).matrix().allFinite())
        return Fail("body '" + body.name + "' has a non-finite pose at t = " + std::to_string(t) + " s");
    for (const auto& d : simulation.deformables)
      if (!d->q().allFinite())
        return Fail("deformable '" + d->name() + "' became non-finite at t = " + std::to_string(t) + " s");
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) std::fprintf(stderr, "\n");
  if (!vtk.Finish(&errors)) return Fail(errors);
#ifdef HYDRO_BULLET_RENDER
  if (video) {
    if (!video->Finish()) return Fail(video->error());
    std::printf("%d video frames at %d per simulated second: %s\n", video->frames(), video->fps(),
                args.video_path.c_str());
  }
#endif
  std::vector<std::string> final_state;
  for (const urdf::BuiltBody& body : simulation.built->bodies()) {
    const RigidTransform X = simulation.built->LinkPose(body);
    const Eigen::Quaterniond q(X.linear());
    Vector3 v, w;
    simulation.built->LinkVelocity(body, &v, &w);
    final_state.push_back(JsonObject(
        {{"body", JsonString(body.name)},
         {"position", JsonVector(X.translation())},
         {"quaternion", JsonArray({JsonNumber(q.w()), JsonNumber(q.x()), JsonNumber(q.y()), JsonNumber(q.z())})},
         {"velocity", JsonVector(v)},
         {"angular_velocity", JsonVector(w)}}));
  }
  for (const auto& d : simulation.deformables)
    final_state.push_back(JsonObject({{"body", JsonString(d->name())},
                                      {"position", JsonVector(d->CalcCenterOfMass())},
                                      {"quaternion", "[1,0,0,0]"},
                                      {"velocity", JsonVector(d->CalcMeanVelocity())},
                                      {"angular_velocity", "[0,0,0]"}}));
  std::ofstream summary(args.out_dir + "/summary.json");
  summary << JsonObject({{"file", JsonString(args.file)},
                         {"plugin", args.plugin ? "true" : "false"},
                         {"steps", std::to_string(steps)},
                         {"dt", JsonNumber(dt)},
                         {"duration", JsonNumber(steps * dt)},
                         {"wall_time", JsonNumber(wall)},
                         {"real_time_factor", JsonNumber(wall > 0 ? steps * dt / wall : 0)},
                         {"final", JsonArray(final_state)}})
          << "\n";
  if (!summary) return Fail("cannot write " + args.out_dir + "/summary.json");
  std::printf("%ld steps of %g s in %.3f s wall time (%.2f× real time); results in %s\n", steps, dt, wall,
              wall > 0 ? steps * dt / wall : 0.0, args.out_dir.c_str());
  return 0;
}

}  // namespace cli
}  // namespace hydro
