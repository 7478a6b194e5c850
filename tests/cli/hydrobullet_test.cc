// The hydrobullet tool end to end: exit codes, JSON schemas, CSV headers and row counts, and the
// VTK series index.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "mini_json.h"

#include "tests/bullet_precision.h"

namespace hydro {
namespace {

namespace fs = std::filesystem;
using test::Json;

struct Result {
  int exit_code;
  std::string out, err;
};

// Runs the tool with `arguments`, capturing stdout and stderr.
Result Tool(const std::string& arguments) {
  const fs::path dir = fs::temp_directory_path() / ("hydrobullet_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  const int status = std::system((std::string(HYDROBULLET_PATH) + " " + arguments + " >" + out + " 2>" + err).c_str());
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  Result result{WEXITSTATUS(status), read(out), read(err)};
  fs::remove_all(dir);
  return result;
}

std::string Scene(const std::string& name) { return std::string(SCENES_DIR) + "/" + name; }

Json ParseJson(const std::string& text) {
  Json json;
  EXPECT_TRUE(test::JsonParser(text).Parse(&json)) << text;
  return json;
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

TEST(HydrobulletTest, HelpAndUsageErrors) {
  EXPECT_EQ(Tool("--help").exit_code, 0);
  for (const char* command : {"inspect", "contact", "run"}) {
    const Result help = Tool(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find(std::string("usage: hydrobullet ") + command), std::string::npos) << help.out;
  }
  EXPECT_EQ(Tool("").exit_code, 2);
  EXPECT_EQ(Tool("launch x.sdf").exit_code, 2);
  EXPECT_EQ(Tool("run " + Scene("box_stack.sdf") + " --bogus").exit_code, 2);
  EXPECT_EQ(Tool("run " + Scene("box_stack.sdf") + " --set box1.speed=1,2,3,4,5,6").exit_code, 2);
  EXPECT_EQ(Tool("run " + Scene("box_stack.sdf") + " --dt -1").exit_code, 2);
}

TEST(HydrobulletTest, BadFilesFailWithOneLineReason) {
  const fs::path bad = fs::temp_directory_path() / "hydrobullet_bad.urdf";
  std::ofstream(bad)
      << "<robot name=\"r\">\n<link name=\"a\">\n<collision><geometry>\n<torus/>\n</geometry></collision>\n"
         "</link></robot>\n";
  for (const char* command : {"inspect", "contact", "run"}) {
    const Result r = Tool(std::string(command) + " " + bad.string());
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_NE(r.err.find("hydrobullet: " + bad.string() + ":4: error: unknown geometry <torus>"), std::string::npos)
        << r.err;
  }
  const Result missing = Tool("inspect /nonexistent/file.sdf");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot open the file"), std::string::npos);
  fs::remove(bad);
}

TEST(HydrobulletTest, InspectJsonFollowsTheSchema) {
  const Result r = Tool("inspect " + Scene("box_stack.sdf") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json json = ParseJson(r.out);
  ASSERT_TRUE(json.Has("models") && json.Has("deformables"));
  ASSERT_EQ(json["models"].array.size(), 4u);
  for (const Json& model : json["models"].array) {
    ASSERT_TRUE(model.Has("name") && model.Has("links") && model.Has("joints"));
    for (const Json& link : model["links"].array) {
      ASSERT_TRUE(link.Has("name") && link.Has("mass") && link.Has("collisions"));
      for (const Json& c : link["collisions"].array) {
        ASSERT_TRUE(c.Has("name") && c.Has("geometry") && c.Has("compliance") && c.Has("hydroelastic_modulus"));
        const std::string compliance = c["compliance"].string;
        EXPECT_TRUE(compliance == "compliant" || compliance == "rigid" || compliance == "none");
        EXPECT_EQ(c["hydroelastic_modulus"].type == Json::kNumber, compliance == "compliant");
      }
    }
  }
  EXPECT_EQ(json["models"][1]["links"][0]["collisions"][0]["hydroelastic_modulus"].number, 1e6);
  EXPECT_EQ(json["models"][1]["links"][0]["mass"].number, 1.0);
}

TEST(HydrobulletTest, ContactJsonHasEveryTouchingPair) {
  const Result r = Tool("contact " + Scene("box_stack.sdf") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json json = ParseJson(r.out);
  ASSERT_TRUE(json.Has("pairs"));
  ASSERT_EQ(json["pairs"].array.size(), 3u);
  for (const Json& pair : json["pairs"].array) {
    for (const char* key : {"a", "b", "polygons", "area", "force", "torque", "center_of_pressure", "max_pressure"})
      ASSERT_TRUE(pair.Has(key)) << key;
    EXPECT_EQ(pair["force"].array.size(), 3u);
    EXPECT_GT(pair["polygons"].number, 0);
    EXPECT_GT(pair["area"].number, 0);
  }
  // Ground on box1: box1 starts 0.1 mm deep in the rigid ground, p = E·d/H = 1e6·1e-4/0.05 Pa
  // over 0.01 m²: 20 N pushing the ground down (the force is on "a").
  const Json& ground = json["pairs"][0];
  EXPECT_EQ(ground["a"].string, "ground::plane");
  EXPECT_EQ(ground["b"].string, "box1::body");
  EXPECT_NEAR(ground["force"][2].number, -2000 * 0.01, 0.05);
  EXPECT_NEAR(ground["max_pressure"].number, 2000, 1);
}

TEST(HydrobulletTest, RunWritesCsvJsonAndVtkSeries) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_run_" + std::to_string(::getpid()));
  fs::remove_all(out);
  for (bool plugin : {true, false}) {
    const Result r =
        Tool("run " + Scene("box_stack.sdf") + " --duration 0.05 --dt 0.001 --out " + out.string() +
             (plugin ? "" : " --no-plugin") + " --set box3.velocity=0.1,0,0,0,0,0 --set box1.pose=0,0,0.0499,0,0,0.5");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto bodies = Lines((out / "bodies.csv").string());
    ASSERT_FALSE(bodies.empty());
    EXPECT_EQ(bodies[0], "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");
    EXPECT_EQ(bodies.size(), 1u + 6 * 4);  // frames at 0, 10, …, 50 ms; four bodies
    EXPECT_EQ(std::count(bodies[1].begin(), bodies[1].end(), ','), 14);
    const auto contacts = Lines((out / "contacts.csv").string());
    EXPECT_EQ(contacts[0], "time,a,b,polygons,area,fx,fy,fz,tx,ty,tz,max_pressure,fn,cx,cy,cz");
    EXPECT_EQ(contacts.size(), 1u + 5 * 3) << (plugin ? "patch" : "stock");
    std::ifstream summary_file(out / "summary.json");
    std::stringstream summary_text;
    summary_text << summary_file.rdbuf();
    const Json summary = ParseJson(summary_text.str());
    for (const char* key : {"steps", "wall_time", "real_time_factor", "final", "plugin", "dt"})
      ASSERT_TRUE(summary.Has(key)) << key;
    EXPECT_EQ(summary["steps"].number, 50);
    EXPECT_EQ(summary["plugin"].boolean, plugin);
    EXPECT_EQ(summary["final"].array.size(), 4u);
    // The initial velocity took: box3 moved along x; box1 started turned.
    EXPECT_GT(summary["final"][3]["position"][0].number, 1e-3);
    EXPECT_NEAR(summary["final"][1]["quaternion"][3].number, std::sin(0.25), 1e-3);  // box1 turned 0.5 rad
    // The .pvd lists a contact and a body file per frame, and each exists.
    const auto pvd = Lines((out / "series.pvd").string());
    int datasets = 0;
    const std::regex dataset("file=\"([^\"]+)\"");
    for (const std::string& line : pvd) {
      std::smatch match;
      if (std::regex_search(line, match, dataset)) {
        ++datasets;
        EXPECT_TRUE(fs::exists(out / match[1].str())) << match[1];
      }
    }
    EXPECT_EQ(datasets, 2 * 6 + 1);  // and the static bodies once
    fs::remove_all(out);
  }
}

// Repeatable runs across processes: the box pile (patches) and the soft block (an FEM body), each
// run twice, write byte-identical bodies.csv and contacts.csv.
TEST(HydrobulletTest, RunsRepeatBitForBitAcrossProcesses) {
  for (const std::string scene : {"box_pile.sdf", "soft_block.sdf"}) {
    std::string logs[2][2];
    for (int k = 0; k < 2; ++k) {
      const fs::path out =
          fs::temp_directory_path() / ("hydrobullet_repeat_" + std::to_string(::getpid()) + "_" + std::to_string(k));
      fs::remove_all(out);
      const Result run = Tool("run " + Scene(scene) + " --duration 0.3 --out " + out.string());
      ASSERT_EQ(run.exit_code, 0) << run.err;
      for (int f = 0; f < 2; ++f) {
        std::ifstream in(out / (f == 0 ? "bodies.csv" : "contacts.csv"));
        std::stringstream text;
        text << in.rdbuf();
        logs[k][f] = text.str();
      }
      fs::remove_all(out);
    }
    EXPECT_GT(logs[0][0].size(), 100u) << scene;
    EXPECT_TRUE(logs[0][0] == logs[1][0]) << scene << ": bodies.csv differs between two runs";
    EXPECT_TRUE(logs[0][1] == logs[1][1]) << scene << ": contacts.csv differs between two runs";
  }
}

TEST(HydrobulletTest, DeformablesAreListedRunAndDrawn) {
  const Result inspect = Tool("inspect " + Scene("soft_block.sdf") + " --json");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  const Json json = ParseJson(inspect.out);
  ASSERT_EQ(json["deformables"].array.size(), 1u);
  EXPECT_EQ(json["deformables"][0]["name"].string, "jelly::body");
  EXPECT_EQ(json["deformables"][0]["vertices"].number, 64);
  EXPECT_EQ(json["deformables"][0]["tets"].number, 162);
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_soft_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const Result run = Tool("run " + Scene("soft_block.sdf") + " --duration 0.1 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // bodies.csv: ground, box and the deformable (by its centroid) at 0, 10, …, 100 ms.
  const auto bodies = Lines((out / "bodies.csv").string());
  EXPECT_EQ(bodies.size(), 1u + 11 * 3);
  int jelly_rows = 0;
  for (const std::string& line : bodies) jelly_rows += line.find(",jelly::body,") != std::string::npos;
  EXPECT_EQ(jelly_rows, 11);
  // The series has a deformables part per frame, each file present.
  int deformable_sets = 0;
  const std::regex dataset("part=\"2\" file=\"([^\"]+)\"");
  for (const std::string& line : Lines((out / "series.pvd").string())) {
    std::smatch match;
    if (std::regex_search(line, match, dataset)) {
      ++deformable_sets;
      EXPECT_TRUE(fs::exists(out / match[1].str())) << match[1];
    }
  }
  EXPECT_EQ(deformable_sets, 11);
  fs::remove_all(out);
}

// The masonry arch scenes: the files' friction, triangle-fan contact and stiction speed reach the
// deformables (with the default μ = 0.5 the low-friction arch stands; without the fan the
// high-friction one tips apart within 2 s). One second each, against arch_test's 60 s.
TEST(HydrobulletTest, ArchStandsWithHighFrictionAndFallsWithLow) {
  auto keystone_drop = [](const std::string& scene, const std::string& out) {
    const Result run = Tool("run " + Scene(scene) + " --duration 1 --out " + out);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::vector<double> z;
    for (const std::string& line : Lines(out + "/bodies.csv")) {
      if (line.find(",arch::voussoir_4,") == std::string::npos) continue;
      std::stringstream row(line);
      std::string cell;
      for (int column = 0; column <= 4; ++column) std::getline(row, cell, ',');
      z.push_back(std::stod(cell));
    }
    fs::remove_all(out);
    EXPECT_EQ(z.size(), 26u);  // every 40 ms step
    return z.empty() ? 0.0 : z.front() - z.back();
  };
  const std::string out = (fs::temp_directory_path() / ("hydrobullet_arch_" + std::to_string(::getpid()))).string();
  const double stands = keystone_drop("arch.sdf", out);
  const double falls = keystone_drop("arch_low_friction.sdf", out);
  std::printf("arch: keystone dropped %.2e m in 1 s with μ = 1.0, %.3f m with μ = 0.2\n", stands, falls);
  EXPECT_LT(stands, 3e-3);  // settling into the contact layer
  EXPECT_GT(falls, 0.1);    // collapsed
}

// The gripper scene: hydro:motor keyframes drive the multibody's joints (fingers close over
// 0.5 s, the lift rises 10 cm over 0.5–1.5 s) and the soft cube goes up with the palm. 1.2 s of
// the file's 3 s (7 cm of lift), against gripper_test's close, lift and shake.
TEST(HydrobulletTest, GripperMotorsLiftTheSoftCube) {
  const std::string out = (fs::temp_directory_path() / ("hydrobullet_gripper_" + std::to_string(::getpid()))).string();
  const Result run = Tool("run " + Scene("gripper.sdf") + " --duration 1.2 --log-dt 0.1 --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<double> cube, palm, finger;
  for (const std::string& line : Lines(out + "/bodies.csv")) {
    std::stringstream row(line);
    std::string time, body, x, y, z;
    for (std::string* cell : {&time, &body, &x, &y, &z}) std::getline(row, *cell, ',');
    if (body == "cube::body") cube.push_back(std::stod(z));
    if (body == "gripper::palm") palm.push_back(std::stod(z));
    if (body == "gripper::left_finger") finger.push_back(std::stod(x));
  }
  fs::remove_all(out);
  ASSERT_EQ(cube.size(), 13u);  // t = 0, 0.1, …, 1.2 s
  ASSERT_EQ(palm.size(), 13u);
  ASSERT_EQ(finger.size(), 13u);
  const double rise = cube.back() - cube.front(), lift = palm.back() - palm.front();
  std::printf("gripper: lift %.4f m (keyframes: 0.07), cube rose %.4f m, left finger closed %.4f m\n", lift, rise,
              finger.back() - finger.front());
  EXPECT_NEAR(lift, 0.07, 1e-3);                             // the lift followed its keyframes,
  EXPECT_NEAR(finger.back() - finger.front(), 0.008, 5e-4);  // the finger its own;
  EXPECT_GT(rise, 0.05);                                     // the cube went up with them
  EXPECT_LT(std::abs(rise - lift), 2e-3);                    // without slipping in the grip
}

// A world saved by Bullet's serializer (demos/scenes/crate_on_ground.bullet: a static ground box,
// a 2 kg crate resting on it) made compliant from outside: by a rule file or --compliant.
TEST(HydrobulletTest, BulletWorldFilesTakeComplianceFromRules) {
  const Result inspect =
      Tool("inspect " + Scene("crate_on_ground.bullet") + " --rules " + Scene("crate_on_ground.rules") + " --json");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  const Json json = ParseJson(inspect.out);
  ASSERT_EQ(json["bodies"].array.size(), 2u);
  EXPECT_EQ(json["bodies"][0]["name"].string, "ground");
  EXPECT_EQ(json["bodies"][0]["compliance"].string, "rigid");
  EXPECT_TRUE(json["bodies"][0]["static"].boolean);
  EXPECT_EQ(json["bodies"][1]["name"].string, "crate");
  EXPECT_EQ(json["bodies"][1]["shape"].string, "box");
  EXPECT_EQ(json["bodies"][1]["mass"].number, 2);
  EXPECT_EQ(json["bodies"][1]["compliance"].string, "compliant");
  EXPECT_EQ(json["bodies"][1]["hydroelastic_modulus"].number, 1e7);
  // --compliant NAME=E overrides the file's rule (the last rule wins).
  const Result soft = Tool("inspect " + Scene("crate_on_ground.bullet") + " --rules " + Scene("crate_on_ground.rules") +
                           " --compliant crate=3e6 --json");
  ASSERT_EQ(soft.exit_code, 0) << soft.err;
  EXPECT_EQ(ParseJson(soft.out)["bodies"][1]["hydroelastic_modulus"].number, 3e6);

  // Run at the file's own step (1/60 s): the crate rests on a patch carrying its weight.
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_bullet_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const Result run =
      Tool("run " + Scene("crate_on_ground.bullet") + " --compliant all --duration 1 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("60 steps of 0.0166667 s"), std::string::npos) << run.out;
  const auto contacts = Lines((out / "contacts.csv").string());
  ASSERT_GE(contacts.size(), 2u);
  std::stringstream last(contacts.back());
  std::vector<std::string> fields;
  for (std::string field; std::getline(last, field, ',');) fields.push_back(field);
  ASSERT_EQ(fields.size(), 16u) << contacts.back();
  EXPECT_GT(std::stoi(fields[3]), 4) << "a patch, not Bullet's points: " << contacts.back();
  const double fz_on_a = std::stod(fields[7]);
  EXPECT_NEAR(std::abs(fz_on_a), 2 * 9.81, 0.01 * 2 * 9.81) << contacts.back();
  // The static ground is drawn once (12 triangles), the crate in every frame.
  auto polys = [&](const std::string& file) {
    for (const std::string& line : Lines((out / file).string())) {
      std::smatch match;
      if (std::regex_search(line, match, std::regex("NumberOfPolys=\"([0-9]+)\""))) return std::stoi(match[1]);
    }
    return -1;
  };
  EXPECT_EQ(polys("bodies_static.vtp"), 12);
  EXPECT_EQ(polys("bodies_00000.vtp"), 12);
  EXPECT_EQ(polys("bodies_00050.vtp"), 12);
  fs::remove_all(out);

  // --set moves the file's bodies by name: pushed at 0.5 m/s, the crate slides (μ stops it).
  const Result pushed =
      Tool("run " + Scene("crate_on_ground.bullet") +
           " --compliant all --duration 0.1 --set crate.velocity=0.5,0,0,0,0,0 --out " + out.string());
  ASSERT_EQ(pushed.exit_code, 0) << pushed.err;
  const auto rows = Lines((out / "bodies.csv").string());
  ASSERT_FALSE(rows.empty());
  std::stringstream crate_row(rows.back());
  std::vector<std::string> crate;
  for (std::string field; std::getline(crate_row, field, ',');) crate.push_back(field);
  ASSERT_EQ(crate[1], "crate");
  EXPECT_GT(std::stod(crate[2]), 0.2 + 0.01) << rows.back();  // it started at x = 0.2
  fs::remove_all(out);
  const Result unknown =
      Tool("run " + Scene("crate_on_ground.bullet") + " --set barrel.pose=0,0,1,0,0,0 --out " + out.string());
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("--set barrel.pose: no moving rigid body named 'barrel'"), std::string::npos)
      << unknown.err;
  const Result unknown_velocity =
      Tool("run " + Scene("crate_on_ground.bullet") + " --set barrel.velocity=1,0,0,0,0,0 --out " + out.string());
  EXPECT_EQ(unknown_velocity.exit_code, 1);
  EXPECT_NE(unknown_velocity.err.find("--set barrel.velocity: no moving rigid body named 'barrel'"), std::string::npos)
      << unknown_velocity.err;
  fs::remove_all(out);

  // Bad rules and bad files: clear errors, no crash.
  const Result bad_option = Tool("inspect " + Scene("crate_on_ground.bullet") + " --compliant crate=soft");
  EXPECT_EQ(bad_option.exit_code, 1);
  EXPECT_NE(bad_option.err.find("--compliant: error: E: 'soft' is not a finite number"), std::string::npos)
      << bad_option.err;
  const Result bad_file = Tool("run " + Scene("crate_on_ground.rules") + ".bullet");
  EXPECT_EQ(bad_file.exit_code, 1);
  EXPECT_NE(bad_file.err.find("crate_on_ground.rules.bullet: error: cannot read"), std::string::npos) << bad_file.err;
  const Result not_bullet = Tool("inspect " + Scene("crate_on_ground.rules") + " --compliant all");
  EXPECT_EQ(not_bullet.exit_code, 1) << "a rule file is not a model file";
}

// Small files written here in the conventions of PyBullet's data files (tests/data/pybullet_style/):
// a mass-0 <plane normal> ground, a nameless robot with a mass-0 base, a lower > upper
// limit, a fixed joint with a zero axis and a spherical joint, a rooted mesh path with a
// four-number scale, and an SDF world in the same spirit.
std::string PyBulletStyle(const std::string& name) { return std::string(TEST_DATA_DIR) + "/pybullet_style/" + name; }

Json ReadJsonFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseJson(text.str());
}

// The entry of `body` in summary.json's "final", or null.
const Json* FinalOf(const Json& summary, const std::string& body) {
  for (const Json& entry : summary["final"].array)
    if (entry["body"].string == body) return &entry;
  return nullptr;
}

// summary.json: every final pose and velocity finite, each body of `fixed` exactly where the file
// put it (identity rotation) and at rest.
void ExpectSaneRun(const Json& summary, const std::map<std::string, std::array<double, 3>>& fixed) {
  for (const Json& entry : summary["final"].array) {
    for (const char* key : {"position", "quaternion", "velocity", "angular_velocity"})
      for (const Json& x : entry[key].array) EXPECT_TRUE(std::isfinite(x.number)) << entry["body"].string << " " << key;
  }
  for (const auto& [body, position] : fixed) {
    const Json* entry = FinalOf(summary, body);
    ASSERT_NE(entry, nullptr) << body;
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ((*entry)["position"][i].number, position[i]) << body;  // exactly: a mass-0 link does not move
      EXPECT_EQ((*entry)["velocity"][i].number, 0) << body;
    }
    EXPECT_EQ((*entry)["quaternion"][0].number, 1) << body;
  }
}

// The angle of a rotation about +y from its quaternion [w, x, y, z].
double AngleAboutY(const Json& q) { return 2 * std::atan2(q[2].number, q[0].number); }

TEST(HydrobulletTest, PyBulletStyleFilesInspect) {
  {  // plane.urdf: a mass-0 link with PyBullet's <plane normal> geometry.
    const Result r = Tool("inspect " + PyBulletStyle("plane.urdf") + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json json = ParseJson(r.out);
    ASSERT_EQ(json["models"].array.size(), 1u);
    const Json& model = json["models"][0];
    EXPECT_EQ(model["name"].string, "plane");
    ASSERT_EQ(model["links"].array.size(), 1u);
    EXPECT_EQ(model["links"][0]["name"].string, "planeLink");
    EXPECT_EQ(model["links"][0]["mass"].number, 0);
    ASSERT_EQ(model["links"][0]["collisions"].array.size(), 1u);
    EXPECT_EQ(model["links"][0]["collisions"][0]["geometry"].string, "plane");
    EXPECT_TRUE(model["joints"].array.empty());
    EXPECT_EQ(r.err, "") << "nothing to warn about";
  }
  {  // nameless_arm.urdf: named after its file; revolute, fixed (zero axis) and spherical joints.
    const Result r = Tool("inspect " + PyBulletStyle("nameless_arm.urdf") + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("nameless_arm.urdf:11: warning: <robot> has no name; calling it 'nameless_arm'"),
              std::string::npos)
        << r.err;
    const Json json = ParseJson(r.out);
    ASSERT_EQ(json["models"].array.size(), 1u);
    const Json& model = json["models"][0];
    EXPECT_EQ(model["name"].string, "nameless_arm");
    ASSERT_EQ(model["links"].array.size(), 4u);
    const char* links[] = {"base", "upper_arm", "tool", "bob"};
    const double masses[] = {0, 1, 0.2, 0.5};
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(model["links"][i]["name"].string, links[i]);
      EXPECT_EQ(model["links"][i]["mass"].number, masses[i]) << links[i];
    }
    ASSERT_EQ(model["joints"].array.size(), 3u);
    const char* joints[][4] = {{"shoulder", "revolute", "base", "upper_arm"},
                               {"tool_weld", "fixed", "upper_arm", "tool"},
                               {"wrist", "spherical", "tool", "bob"}};
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(model["joints"][j]["name"].string, joints[j][0]);
      EXPECT_EQ(model["joints"][j]["type"].string, joints[j][1]);
      EXPECT_EQ(model["joints"][j]["parent"].string, joints[j][2]);
      EXPECT_EQ(model["joints"][j]["child"].string, joints[j][3]);
    }
  }
  {  // mesh_crate.urdf: "/meshes/crate.obj" found beside the file; scale "0.1 0.1 0.1 1".
    const Result r = Tool("inspect " + PyBulletStyle("mesh_crate.urdf"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("model crate (free)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("link body: 2 kg, 1 collision(s)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mesh " + PyBulletStyle("meshes/crate.obj")), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("mesh_crate.urdf:15: warning: mesh scale: 4 numbers given; the first three are used"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("'/meshes/crate.obj' is not a file; using " + PyBulletStyle("meshes/crate.obj")),
              std::string::npos)
        << r.err;
  }
  {  // world.sdf: three models; a ball and a fixed joint with zero axes; the same rooted mesh URI.
    const Result r = Tool("inspect " + PyBulletStyle("world.sdf") + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("'/meshes/crate.obj' is not a file; using " + PyBulletStyle("meshes/crate.obj")),
              std::string::npos)
        << r.err;
    const Json json = ParseJson(r.out);
    ASSERT_EQ(json["models"].array.size(), 3u);
    EXPECT_EQ(json["models"][0]["name"].string, "ground");
    EXPECT_EQ(json["models"][0]["links"][0]["mass"].number, 0);
    EXPECT_EQ(json["models"][0]["links"][0]["collisions"][0]["geometry"].string, "plane");
    EXPECT_EQ(json["models"][1]["name"].string, "crate");
    EXPECT_EQ(json["models"][1]["links"][0]["collisions"][0]["geometry"].string, "mesh");
    const Json& pendulum = json["models"][2];
    EXPECT_EQ(pendulum["name"].string, "pendulum");
    ASSERT_EQ(pendulum["links"].array.size(), 4u);
    EXPECT_EQ(pendulum["links"][0]["mass"].number, 0);
    ASSERT_EQ(pendulum["joints"].array.size(), 3u);
    EXPECT_EQ(pendulum["joints"][0]["type"].string, "revolute");
    EXPECT_EQ(pendulum["joints"][1]["type"].string, "fixed");
    EXPECT_EQ(pendulum["joints"][2]["type"].string, "spherical");
    EXPECT_EQ(pendulum["joints"][2]["child"].string, "bob");
  }
}

// Short runs: the mass-0 bases stay exactly where the files put them, the lower > upper limits
// do not hold the arms, and the mesh crate (scaled to 0.2 m) lands on the mass-0 plane.
TEST(HydrobulletTest, PyBulletStyleFilesRun) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_pybullet_style_" + std::to_string(::getpid()));
  for (const char* extra : {"", " --compliant all"}) {
    fs::remove_all(out);
    const Result arm =
        Tool("run " + PyBulletStyle("nameless_arm.urdf") + " --duration 0.2 --out " + out.string() + extra);
    ASSERT_EQ(arm.exit_code, 0) << arm.err;
    const Json summary = ReadJsonFile(out / "summary.json");
    EXPECT_EQ(summary["steps"].number, 200);
    ASSERT_EQ(summary["final"].array.size(), 4u);
    ExpectSaneRun(summary, {{"nameless_arm::base", {0, 0, 0}}});
    // The arm fell about the shoulder past the 0.3 rad that lower = 0.3 > upper = -0.3 would
    // bound (measured 0.47 rad); the shoulder itself stays on the base.
    const Json* upper_arm = FinalOf(summary, "nameless_arm::upper_arm");
    ASSERT_NE(upper_arm, nullptr);
    EXPECT_GT(AngleAboutY((*upper_arm)["quaternion"]), 0.35) << extra;
    EXPECT_NEAR((*upper_arm)["position"][2].number, 0.15, hydro::test::BulletAbsolute(1e-9, 0.15));
    // The welded tool moved with the arm's tip, 0.5 m from the shoulder.
    const Json* tool = FinalOf(summary, "nameless_arm::tool");
    ASSERT_NE(tool, nullptr);
    EXPECT_NEAR(std::hypot((*tool)["position"][0].number, (*tool)["position"][2].number - 0.15), 0.5, 1e-6);
  }
  for (const std::string extra : {"", " --compliant all", " --no-plugin", " --compliant 'ground*=1e7'"}) {
    const bool patch = extra.find("--compliant") != std::string::npos;
    fs::remove_all(out);
    const Result world = Tool("run " + PyBulletStyle("world.sdf") + " --duration 0.2 --out " + out.string() + extra);
    ASSERT_EQ(world.exit_code, 0) << world.err;
    const Json summary = ReadJsonFile(out / "summary.json");
    ASSERT_EQ(summary["final"].array.size(), 6u);
    ExpectSaneRun(summary, {{"ground::plane", {0, 0, 0}}, {"pendulum::post", {-0.5, 0, 0}}});
    const Json* arm = FinalOf(summary, "pendulum::arm");
    ASSERT_NE(arm, nullptr);
    EXPECT_GT(AngleAboutY((*arm)["quaternion"]), 0.6) << extra;  // past the 0.5 of lower > upper (measured 0.81)
    // The crate fell from 0.15 m and rests on the plane; at the file's scale (0.2 m) its centre is
    // 0.1 m up (unscaled, 2 m, it would start 0.85 m inside the plane and be thrown up). On
    // Bullet's points (stock, and with the plugin and nothing tagged) it rests on its hull's
    // collision margin, PyBullet's 0.001 m: 0.101 m (measured 0.101; 0.14 with Bullet's default
    // 0.04 m). On a patch (the crate, or the plane at 1e7 Pa, compliant) it is pressed in by
    // m·g·ℓ/(E·A) = 4.9 µm (ℓ = 0.1 m, E = 1e7 Pa): measured 0.0999951 m; it had hung on
    // Bullet's points 1 mm up.
    const Json* crate = FinalOf(summary, "crate::body");
    ASSERT_NE(crate, nullptr);
    const double sink = 2 * 9.81 * 0.1 / (1e7 * 0.04);
    EXPECT_NEAR((*crate)["position"][2].number, patch ? 0.1 - sink : 0.101, 1e-5) << extra;
    EXPECT_LT(std::abs((*crate)["velocity"][2].number), 0.05) << extra;
    // The last logged contact of the plane and the crate carries the crate's weight, on a patch
    // (measured 517 polygons with the crate compliant, 384 with the plane) or Bullet's 4 points.
    double fz = 0, fn = 0;
    int polygons = 0;
    for (const std::string& line : Lines((out / "contacts.csv").string())) {
      if (line.rfind("0.200000,", 0) != 0 || line.find("crate::body") == std::string::npos) continue;
      std::stringstream row(line);
      std::vector<std::string> fields;
      for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
      ASSERT_EQ(fields.size(), 16u) << line;
      fz = std::stod(fields[7]);
      fn = std::stod(fields[12]);
      polygons = std::stoi(fields[3]);
    }
    EXPECT_NEAR(std::abs(fz), 2 * 9.81, 0.01 * 2 * 9.81) << extra;  // measured 19.62 (19.6202 stock)
    // The normal force pushes a off b: the weight, positive, whichever body is a.
    EXPECT_NEAR(fn, 2 * 9.81, 0.01 * 2 * 9.81) << extra;
    if (patch) {
      EXPECT_GT(polygons, 4) << extra;
    } else {
      EXPECT_EQ(polygons, 4) << extra;
    }
  }
  fs::remove_all(out);
}

// The width and height a PNG's header states (0 × 0 if it is not a PNG).
std::pair<int, int> PngSize(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char header[24] = {};
  in.read(reinterpret_cast<char*>(header), sizeof(header));
  if (!in || std::memcmp(header, "\x89PNG\r\n\x1a\n", 8) != 0 || std::memcmp(header + 12, "IHDR", 4) != 0)
    return {0, 0};
  auto be32 = [&](int at) {
    return (header[at] << 24) | (header[at + 1] << 16) | (header[at + 2] << 8) | header[at + 3];
  };
  return {be32(16), be32(20)};
}

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// `plot` turns a run's logs into PNGs of the size asked for, with labelled axes, one per pair and
// one for the bodies; a missing gnuplot and a broken log are reported, not crashed on.
TEST(HydrobulletTest, PlotsARunsContactsAndBodies) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_plot_" + std::to_string(::getpid()));
  fs::remove_all(out);
  ASSERT_EQ(Tool("run " + Scene("coin.sdf") + " --duration 0.1 --out " + out.string()).exit_code, 0);
  const Result plot = Tool("plot " + out.string() + " --width 800 --height 600");
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  EXPECT_NE(plot.out.find("2 plot(s)"), std::string::npos) << plot.out;
  const fs::path pair = out / "plots" / "pair0_table__top__coin__body";
  const fs::path bodies = out / "plots" / "bodies_speed";
  for (const fs::path& stem : {pair, bodies}) {
    const std::string png = stem.string() + ".png";
    EXPECT_EQ(PngSize(png), std::make_pair(800, 600)) << png;
    // Drawn, not blank: a blank 800 × 600 PNG compresses to under 5 kB.
    EXPECT_GT(fs::file_size(png), 20000u) << png;
  }
  // Every panel's axes are labelled (in the script gnuplot drew from).
  const std::string pair_script = ReadText(pair.string() + ".gp");
  for (const char* label :
       {"time (s)", "normal force (N)", "contact area (m^2)", "max pressure (Pa)", "centre of pressure (m)"})
    EXPECT_NE(pair_script.find(std::string("set ") + (std::string(label) == "time (s)" ? "x" : "y") + "label '" +
                               label + "'"),
              std::string::npos)
        << label;
  const std::string bodies_script = ReadText(bodies.string() + ".gp");
  for (const char* label : {"set xlabel 'time (s)'", "set ylabel 'speed (m/s)'", "set ylabel 'angular speed (rad/s)'"})
    EXPECT_NE(bodies_script.find(label), std::string::npos) << label;
  // The data drawn are the log's: the coin's weight on the normal-force panel (5.67 g·g).
  const std::string pair_data = ReadText(pair.string() + ".dat");
  EXPECT_NEAR(std::stod(pair_data.substr(pair_data.find(' ') + 1)), 0.00567 * 9.81, 1e-3);

  const Result no_gnuplot =
      Tool("plot " + out.string() + " --out " + (out / "p2").string() +
           " 2>&1; HYDROBULLET_GNUPLOT=/nonexistent/gnuplot " + HYDROBULLET_PATH + " plot " + out.string());
  EXPECT_EQ(no_gnuplot.exit_code, 1);
  EXPECT_NE(no_gnuplot.err.find("not found: install it (Debian: apt-get install gnuplot-nox)"), std::string::npos)
      << no_gnuplot.err;
  std::ofstream(out / "contacts.csv", std::ios::app) << "0.5,a,b,1\n";
  const Result broken = Tool("plot " + out.string());
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find("contacts.csv:"), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("fields, the header has 16"), std::string::npos) << broken.err;
  fs::remove_all(out);
}

// A one-millisecond run with `options`, its summary.json parsed; the exit code and stderr in *result.
Json ShortRun(const std::string& file, const std::string& options, Result* result) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_short_" + std::to_string(::getpid()));
  fs::remove_all(out);
  *result = Tool("run " + file + " --duration 0.001 --out " + out.string() + " " + options);
  Json summary;
  if (result->exit_code == 0) summary = ReadJsonFile(out / "summary.json");
  fs::remove_all(out);
  return summary;
}

// --set NAME.pose and NAME.velocity go through one check: a model, its `model::link` and a model
// whose link has the model's name (`crate::crate`) are taken by both, and what they set reaches the
// run (1 ms: the set pose has fallen 5 µm, the set velocity carried the body 1 mm).
TEST(HydrobulletTest, PoseAndVelocitySetTakeTheSameTargets) {
  const fs::path urdf = fs::temp_directory_path() / ("hydrobullet_crate_" + std::to_string(::getpid()) + ".urdf");
  std::ofstream(urdf) << "<robot name=\"crate\"><link name=\"crate\">\n"
                         "<inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" "
                         "ixz=\"0\" iyz=\"0\"/></inertial>\n"
                         "<collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision>\n"
                         "</link></robot>\n";
  const std::vector<std::pair<std::string, std::string>> targets = {{Scene("box_stack.sdf"), "box3"},
                                                                    {Scene("box_stack.sdf"), "box3::body"},
                                                                    {urdf.string(), "crate"},
                                                                    {urdf.string(), "crate::crate"}};
  for (const auto& [file, name] : targets) {
    const std::string body =
        name.find("::") == std::string::npos ? name + (name == "crate" ? "::crate" : "::body") : name;
    Result posed, pushed;
    const Json pose = ShortRun(file, "--set " + name + ".pose=0.5,0,2,0,0,0", &posed);
    ASSERT_EQ(posed.exit_code, 0) << name << ": " << posed.err;
    const Json* posed_body = FinalOf(pose, body);
    ASSERT_NE(posed_body, nullptr) << body;
    EXPECT_NEAR((*posed_body)["position"][0].number, 0.5, 1e-9) << name;
    EXPECT_NEAR((*posed_body)["position"][2].number, 2, 1e-4) << name;
    const Json velocity = ShortRun(file, "--set " + name + ".velocity=0,1,0,0,0,0", &pushed);
    ASSERT_EQ(pushed.exit_code, 0) << name << ": " << pushed.err;
    const Json* pushed_body = FinalOf(velocity, body);
    ASSERT_NE(pushed_body, nullptr) << body;
    EXPECT_NEAR((*pushed_body)["position"][1].number, 1e-3, 1e-4) << name;
  }
  fs::remove(urdf);
}

// The targets both refuse, with the same message shape: "--set NAME.PROPERTY: reason in FILE".
TEST(HydrobulletTest, PoseAndVelocitySetRefuseTheSameTargetsAlike) {
  const std::string stack = Scene("box_stack.sdf"), gripper = Scene("gripper.sdf");
  for (const std::string property : {"pose", "velocity"}) {
    Result r;
    ShortRun(stack, "--set ghost." + property + "=0,0,1,0,0,0", &r);
    EXPECT_EQ(r.exit_code, 1) << property;
    EXPECT_EQ(r.err, "hydrobullet: --set ghost." + property + ": no model or body named 'ghost' in " + stack + "\n");
    // A multibody's link follows its joints: neither its pose nor its velocity can be set alone.
    ShortRun(gripper, "--set gripper::left_finger." + property + "=0,0,1,0,0,0", &r);
    EXPECT_EQ(r.exit_code, 1) << property;
    EXPECT_EQ(r.err, "hydrobullet: --set gripper::left_finger." + property +
                         ": body 'gripper::left_finger' is a link of the multibody 'gripper' in " + gripper +
                         "; set gripper." + property + " instead\n");
  }
  // A static body can be placed but not started, and so can a fixed-base model.
  Result r;
  const Json moved = ShortRun(stack, "--set ground::plane.pose=0,0,-0.5,0,0,0", &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ((*FinalOf(moved, "ground::plane"))["position"][2].number, -0.5);
  ShortRun(stack, "--set ground::plane.velocity=0,0,1,0,0,0", &r);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "hydrobullet: --set ground::plane.velocity: body 'ground::plane' is static in " + stack +
                       ": nothing to start\n");
  ShortRun(stack, "--set ground.velocity=0,0,1,0,0,0", &r);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "hydrobullet: --set ground.velocity: model 'ground' is static or fixed-base in " + stack +
                       ": nothing to start\n");
  ShortRun(gripper, "--set gripper.velocity=0,0,1,0,0,0", &r);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("model 'gripper' is static or fixed-base"), std::string::npos) << r.err;
  ShortRun(gripper, "--set gripper.pose=0,0,0.01,0,0,0", &r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// A NaN, an infinity or an overflowing number in either property is a usage error naming the
// value's place; so is a wrong count.
TEST(HydrobulletTest, SetRefusesNonFiniteValuesForPoseAndVelocity) {
  const std::string run = "run " + Scene("box_stack.sdf") + " --duration 0.001 --out /nonexistent/never --set ";
  for (const std::string property : {"pose", "velocity"}) {
    const std::string where = "hydrobullet: --set box1." + property;
    const std::pair<std::string, std::string> cases[] = {
        {"nan,0,0,0,0,0", where + ": value 1 ('nan') is not a finite number"},
        {"0,0,0,inf,0,0", where + ": value 4 ('inf') is not a finite number"},
        {"0,0,0,0,0,-1e999", where + ": value 6 ('-1e999') is not a finite number"},
        {"0,,0,0,0,0", where + ": value 2 ('') is not a finite number"},
        {"0,0,0,0,0", where + " needs six comma-separated numbers, got 5"},
        {"0,0,0,0,0,0,0", where + " needs six comma-separated numbers, got 7"}};
    for (const auto& [values, message] : cases) {
      const Result r = Tool(run + "box1." + property + "=" + values);
      EXPECT_EQ(r.exit_code, 2) << values;
      EXPECT_EQ(r.err.substr(0, r.err.find('\n')), message) << values;
    }
  }
}

// The first line of `text`.
std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// A usage error names what is wrong on stderr's first line, then shows the usage, and exits 2.
TEST(HydrobulletTest, UsageErrorsNameTheProblem) {
  const std::string stack = Scene("box_stack.sdf");
  const std::pair<std::string, std::string> cases[] = {
      {"run", "no FILE given"},
      {"run a.sdf b.sdf", "more than one FILE given"},
      {"run " + stack + " --json", "unknown option '--json' for run"},
      {"inspect " + stack + " --rigid", "unknown option '--rigid' for inspect"},
      {"contact " + stack + " --duration 1", "unknown option '--duration' for contact"},
      {"inspect " + stack + " --set box1.pose=0,0,0,0,0,0", "unknown option '--set' for inspect"},
      {"run " + stack + " --duration 0", "--duration needs a positive number of seconds"},
      {"run " + stack + " --duration nan", "--duration needs a positive number of seconds"},
      {"run " + stack + " --duration", "--duration needs a positive number of seconds"},
      {"run " + stack + " --log-dt -0.01", "--log-dt needs a positive number of seconds"},
      {"run " + stack + " --dt 1e999", "--dt needs a positive number of seconds"},
      {"run " + stack + " --out", "--out needs a directory"},
      {"run " + stack + " --video", "--video needs an .mp4 file"},
      {"run " + stack + " --width 15", "--width needs a whole number of pixels, 16 to 8192"},
      {"run " + stack + " --height 100.5", "--height needs a whole number of pixels, 16 to 8192"},
      {"run " + stack + " --camera 1,2,3", "--camera needs six comma-separated numbers: eye x,y,z then target x,y,z"},
      {"run " + stack + " --camera 0,0,1,0,0,nan",
       "--camera needs six comma-separated numbers: eye x,y,z then target x,y,z"},
      {"run " + stack + " --set box1", "--set expects NAME.velocity=… or NAME.pose=…, got 'box1'"},
      {"run " + stack + " --set .pose=0,0,0,0,0,0",
       "--set expects NAME.velocity=… or NAME.pose=…, got '.pose=0,0,0,0,0,0'"},
      {"run " + stack + " --set box1.spin=0,0,0,0,0,0", "--set: unknown property 'spin' (velocity or pose)"},
      {"run " + stack + " --set", "--set needs NAME.velocity=… or NAME.pose=…"},
      {"run " + stack + " --package-path", "--package-path needs a directory"},
      {"run " + stack + " --model-path", "--model-path needs a directory"},
      {"run " + stack + " --rules", "--rules needs a file"},
      {"run " + stack + " --compliant", "--compliant needs 'all' or NAME=E"},
      {"render " + stack, "render needs --out IMAGE.png"},
      {"render " + stack + " --time -1 --out x.png", "--time needs a number of seconds, 0 or more"},
      {"render " + stack + " --out", "--out needs a PNG file"},
      {"view " + stack + " --frames 2.5", "--frames needs a whole number"},
      {"view " + stack + " --input", "--input needs a file of viewer events"},
      {"plot", "no DIR given"},
      {"plot a b", "more than one DIR given"},
      {"plot a --width 20000", "--width needs a whole number of pixels, 16 to 10000"},
      {"plot a --height 15", "--height needs a whole number of pixels, 16 to 10000"},
      {"plot a --out", "--out needs a directory"},
      {"plot a --bogus", "unknown option '--bogus' for plot"}};
  for (const auto& [arguments, message] : cases) {
    const Result r = Tool(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments;
    EXPECT_EQ(FirstLine(r.err), "hydrobullet: " + message) << arguments;
    EXPECT_NE(r.err.find("usage: hydrobullet <command> [options] FILE"), std::string::npos) << arguments;
    EXPECT_EQ(r.out, "") << arguments;
  }
}

// Every command's --help shows its own usage and options, on stdout, and exits 0.
TEST(HydrobulletTest, EveryCommandHasItsOwnHelp) {
  const std::pair<std::string, std::vector<std::string>> commands[] = {
      {"view", {"usage: hydrobullet view FILE", "--frames N", "--input EVENTS", "--compliant all"}},
      {"render", {"usage: hydrobullet render FILE --out IMAGE.png", "--time S", "--camera ex,ey,ez,tx,ty,tz"}},
      {"plot", {"usage: hydrobullet plot DIR", "--out DIR2", "--width W, --height H"}},
      {"run", {"--log-dt S", "--set NAME.velocity=vx,vy,vz,wx,wy,wz", "--video FILE.mp4", "--rules FILE"}},
      {"inspect", {"--json", "--package-path DIR", "--model-path DIR"}}};
  for (const auto& [command, texts] : commands) {
    const Result r = Tool(command + " -h");
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_EQ(r.err, "") << command;
    for (const std::string& text : texts) EXPECT_NE(r.out.find(text), std::string::npos) << command << ": " << text;
  }
  const Result top = Tool("help");
  EXPECT_EQ(top.exit_code, 0);
  for (const char* command : {"inspect", "contact", "run", "view", "render", "plot"})
    EXPECT_NE(top.out.find(std::string("  ") + command + " "), std::string::npos) << command;
}

// `inspect` without --json: the scene's header line, each model with its kind and place, each
// link's mass and collisions with their geometry and compliance, joints with their motors and the
// deformables with their material.
TEST(HydrobulletTest, InspectTextDescribesModelsJointsAndDeformables) {
  const std::string stack = Scene("box_stack.sdf");
  const Result r = Tool("inspect " + stack);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& line :
       std::vector<std::string>{stack + ": 4 model(s), 0 deformable(s); gravity [0,0,-9.81] m/s², step 0.001 s\n",
                                "model ground (static) at [0,0,0]\n  link plane: 0 kg, 1 collision(s)\n"
                                "    surface: plane n = [0,0,1]; rigid hydroelastic\n",
                                "model box2 (free) at [0,0,0.1497]\n  link body: 1 kg, 1 collision(s)\n"
                                "    c: box [0.1,0.1,0.1]; compliant, E = 1000000 Pa\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\nin\n" << r.out;
  // --compliant overrides the file's modulus in what inspect shows.
  const Result soft = Tool("inspect " + stack + " --compliant 'box2*=2.5e6'");
  ASSERT_EQ(soft.exit_code, 0) << soft.err;
  EXPECT_NE(soft.out.find("model box2 (free) at [0,0,0.1497]\n  link body: 1 kg, 1 collision(s)\n"
                          "    c: box [0.1,0.1,0.1]; compliant, E = 2500000 Pa\n"),
            std::string::npos)
      << soft.out;

  const Result gripper = Tool("inspect " + Scene("gripper.sdf"));
  ASSERT_EQ(gripper.exit_code, 0) << gripper.err;
  for (const char* line :
       {"model gripper (fixed base) at [0,0,0]\n",
        "  joint lift (prismatic): world -> palm; motor: max force 2000, kp 1, kd 1, 27 keyframe(s) over 0–3 s\n",
        "  joint left_finger (prismatic): palm -> left_finger; motor: max force 200, kp 1, kd 1, 2 keyframe(s) over "
        "0–0.5 s\n",
        "deformable cube::body: 125 vertices, 384 tets, E = 50000 Pa, nu = 0.4, rho = 500 kg/m³, mu = 1\n"})
    EXPECT_NE(gripper.out.find(line), std::string::npos) << line << "\nin\n" << gripper.out;
}

// `contact` without --json: one line per touching pair with its numbers, or a sentence when
// nothing touches.
TEST(HydrobulletTest, ContactTextReportsEachPairOrNone) {
  const Result r = Tool("contact " + Scene("box_stack.sdf"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::stringstream text(r.out);
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0].rfind("ground::plane / box1::body: 24 polygons, area 0.01 m², force on ground::plane [", 0), 0u)
      << lines[0];
  // 2000 Pa, printed to six digits; 2000.03 in Bullet's float build, where the poses the depth comes
  // from round at 6e-8 of their size.
  const size_t pressure = lines[0].find(", max pressure ");
  ASSERT_NE(pressure, std::string::npos) << lines[0];
  EXPECT_NEAR(std::stod(lines[0].substr(pressure + std::strlen(", max pressure "))), 2000,
              test::BulletAbsolute(1e-9, 2000, 512))
      << lines[0];
  EXPECT_EQ(lines[0].substr(lines[0].size() - 3), " Pa") << lines[0];
  EXPECT_EQ(lines[1].rfind("box1::body / box2::body: ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("box2::body / box3::body: ", 0), 0u) << lines[2];

  // One box in the air: nothing touches.
  const fs::path alone = fs::temp_directory_path() / ("hydrobullet_alone_" + std::to_string(::getpid()) + ".urdf");
  std::ofstream(alone) << "<robot name=\"r\"><link name=\"a\"><collision><geometry><box size=\"0.1 0.1 0.1\"/>"
                          "</geometry></collision></link></robot>\n";
  const Result none = Tool("contact " + alone.string() + " --compliant all");
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "no patch contact in the initial configuration\n");
  const Result json = Tool("contact " + alone.string() + " --compliant all --json");
  EXPECT_EQ(json.out, "{\"pairs\":[]}\n");
  fs::remove(alone);
}

// A bad rule file or an unresolved package:// mesh fails with the file and line; a package path
// resolves the mesh.
TEST(HydrobulletTest, RuleAndPackageErrorsNameTheFileAndLine) {
  const fs::path dir = fs::temp_directory_path() / ("hydrobullet_files_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "root" / "pkg" / "meshes");
  const std::string stack = Scene("box_stack.sdf"), rules = (dir / "bad.rules").string();
  std::ofstream(rules) << "# comment\nbox* compliant E=3e6\nground rigid bogus=1\n";
  const Result bad = Tool("inspect " + stack + " --rules " + rules);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, rules + ":3: error: 'bogus' is a property of compliant bodies only\nhydrobullet: " + rules +
                         ":3: error: 'bogus' is a property of compliant bodies only\n");
  EXPECT_EQ(bad.out, "");
  const Result missing = Tool("run " + stack + " --rules " + (dir / "none.rules").string());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(FirstLine(missing.err), (dir / "none.rules").string() + ": error: cannot read the rule file");
  // The good line alone: the boxes compliant at 3 MPa, the ground as the file has it.
  std::ofstream(rules) << "box* compliant E=3e6\n";
  const Result good = Tool("inspect " + stack + " --rules " + rules + " --json");
  ASSERT_EQ(good.exit_code, 0) << good.err;
  const Json json = ParseJson(good.out);
  EXPECT_EQ(json["models"][0]["links"][0]["collisions"][0]["compliance"].string, "rigid");
  for (int m = 1; m <= 3; ++m)
    EXPECT_EQ(json["models"][m]["links"][0]["collisions"][0]["hydroelastic_modulus"].number, 3e6) << m;

  const std::string urdf = (dir / "m.urdf").string();
  std::ofstream(urdf) << "<robot name=\"r\">\n  <link name=\"a\">\n"
                         "    <collision><geometry><mesh filename=\"package://pkg/meshes/crate.obj\"/></geometry>"
                         "</collision>\n  </link>\n</robot>\n";
  const Result unresolved = Tool("inspect " + urdf);
  EXPECT_EQ(unresolved.exit_code, 1);
  EXPECT_EQ(FirstLine(unresolved.err).rfind(urdf + ":3: error: missing mesh 'package://pkg/meshes/crate.obj'", 0), 0u)
      << unresolved.err;
  fs::copy_file(PyBulletStyle("meshes/crate.obj"), dir / "root" / "pkg" / "meshes" / "crate.obj");
  const Result resolved = Tool("inspect " + urdf + " --package-path " + (dir / "root").string());
  EXPECT_EQ(resolved.exit_code, 0) << resolved.err;
  EXPECT_NE(resolved.out.find("mesh " + (dir / "root" / "pkg" / "meshes" / "crate.obj").string()), std::string::npos)
      << resolved.out;
  fs::remove_all(dir);
}

// bodies.csv's columns in order: at t = 0 the row of a body set by --set holds the set position,
// the quaternion of the set roll-pitch-yaw and the set velocities; the others start as the file has them.
TEST(HydrobulletTest, BodiesCsvColumnsHoldTheSetState) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_columns_" + std::to_string(::getpid()));
  fs::remove_all(out);
  const Result r = Tool("run " + Scene("box_stack.sdf") + " --duration 0.001 --out " + out.string() +
                        " --set box1.pose=0.1,0.2,0.3,0,0,0.5 --set box3.velocity=0.1,0.2,0.3,0.4,0.5,0.6");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::vector<double>> at_zero;
  for (const std::string& line : Lines((out / "bodies.csv").string())) {
    std::stringstream row(line);
    std::vector<std::string> fields;
    for (std::string field; std::getline(row, field, ',');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 15u) << line;
    if (fields[0] != "0.000000") continue;
    for (size_t i = 2; i < fields.size(); ++i) at_zero[fields[1]].push_back(std::stod(fields[i]));
  }
  fs::remove_all(out);
  ASSERT_EQ(at_zero.size(), 4u);
  const std::vector<double> box1 = at_zero["box1::body"], box3 = at_zero["box3::body"];
  const double expected_box1[] = {0.1, 0.2, 0.3, std::cos(0.25), 0, 0, std::sin(0.25), 0, 0, 0, 0, 0, 0};
  // box3 where the file puts it, turned 0.4 rad about z.
  const double expected_box3[] = {0, 0, 0.2495, std::cos(0.2), 0, 0, std::sin(0.2), 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  ASSERT_EQ(box1.size(), 13u);
  ASSERT_EQ(box3.size(), 13u);
  for (int i = 0; i < 13; ++i) {
    // Bullet's float build stores 0.3 as 0.30000001 (hydro::test::BulletAbsolute).
    EXPECT_NEAR(box1[i], expected_box1[i], test::BulletAbsolute(1e-8, 1)) << "box1 column " << i + 2;
    EXPECT_NEAR(box3[i], expected_box3[i], test::BulletAbsolute(1e-8, 1)) << "box3 column " << i + 2;
  }
}

// --log-dt sets the rows' times; a step longer than the default 10 ms logs every step; the summary
// states the steps, step and duration run.
TEST(HydrobulletTest, RunLogsAtTheLoggingInterval) {
  const fs::path out = fs::temp_directory_path() / ("hydrobullet_log_dt_" + std::to_string(::getpid()));
  auto times = [&](const std::string& options) {
    fs::remove_all(out);
    const Result r = Tool("run " + Scene("box_stack.sdf") + " --out " + out.string() + " " + options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> logged;
    for (const std::string& line : Lines((out / "bodies.csv").string())) {
      const std::string t = line.substr(0, line.find(','));
      if (t != "time" && (logged.empty() || logged.back() != t)) logged.push_back(t);
    }
    return logged;
  };
  EXPECT_EQ(times("--duration 0.05 --dt 0.001 --log-dt 0.025"),
            (std::vector<std::string>{"0.000000", "0.025000", "0.050000"}));
  EXPECT_EQ(times("--duration 0.1 --dt 0.02"),
            (std::vector<std::string>{"0.000000", "0.020000", "0.040000", "0.060000", "0.080000", "0.100000"}));
  const Json summary = ReadJsonFile(out / "summary.json");
  EXPECT_EQ(summary["steps"].number, 5);
  EXPECT_EQ(summary["dt"].number, 0.02);
  EXPECT_NEAR(summary["duration"].number, 0.1, 1e-12);
  EXPECT_EQ(summary["file"].string, Scene("box_stack.sdf"));
  // Without --dt, the file's step (box_stack.sdf: 1 ms).
  EXPECT_EQ(times("--duration 0.02").size(), 3u);
  EXPECT_EQ(ReadJsonFile(out / "summary.json")["dt"].number, 0.001);
  fs::remove_all(out);
}

// A run that cannot write its results, or cannot start its video encoder, fails with the reason
// before simulating.
TEST(HydrobulletTest, RunFailsWhenItCannotWriteItsResults) {
  const fs::path file = fs::temp_directory_path() / ("hydrobullet_not_a_dir_" + std::to_string(::getpid()));
  std::ofstream(file) << "a file, not a directory\n";
  const std::string under_file = (file / "out").string();
  const Result r = Tool("run " + Scene("box_stack.sdf") + " --duration 0.001 --out " + under_file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(FirstLine(r.err).rfind("hydrobullet: cannot create " + under_file + ": ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
  // No ffmpeg (or no rendering in this build): --video is refused with a reason naming it.
  const fs::path video = fs::temp_directory_path() / ("hydrobullet_video_" + std::to_string(::getpid()));
  fs::remove_all(video);
  const Result no_ffmpeg =
      Tool("--help >/dev/null; HYDROBULLET_FFMPEG=/nonexistent/ffmpeg " + std::string(HYDROBULLET_PATH) + " run " +
           Scene("box_stack.sdf") + " --duration 0.001 --out " + (video / "out").string() + " --video " +
           (video / "run.mp4").string());
  EXPECT_EQ(no_ffmpeg.exit_code, 1);
  EXPECT_EQ(FirstLine(no_ffmpeg.err).rfind("hydrobullet: --video ", 0), 0u) << no_ffmpeg.err;
  EXPECT_FALSE(fs::exists(video / "run.mp4"));
  fs::remove_all(video);
  // `plot` of a directory without a run's logs.
  const Result plot = Tool("plot " + under_file);
  EXPECT_EQ(plot.exit_code, 1);
  EXPECT_EQ(FirstLine(plot.err), "hydrobullet: plot: " + under_file +
                                     "/contacts.csv: cannot read (run `hydrobullet run ... --out DIR` first)");
  fs::remove(file);
}

}  // namespace
}  // namespace hydro
