// `hydrobullet render` headless: the resting-ball scene drawn offscreen, decoded and checked — its
// size, that it is a picture (many colours), and the pressure colours of the patch under the ball.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace hydro {
namespace {

namespace fs = std::filesystem;

struct Image {
  int width{0}, height{0};
  std::vector<unsigned char> rgb;
  const unsigned char* At(int x, int y) const { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
};

bool ReadPng(const std::string& path, Image* image) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) return false;
  png.format = PNG_FORMAT_RGB;
  image->width = static_cast<int>(png.width);
  image->height = static_cast<int>(png.height);
  image->rgb.resize(PNG_IMAGE_SIZE(png));
  return png_image_finish_read(&png, nullptr, image->rgb.data(), 0, nullptr) != 0;
}

int Tool(const std::string& arguments, const std::string& environment = "", const std::string& stderr_path = "") {
  const std::string errors = stderr_path.empty() ? "&1" : stderr_path;
  const int status = std::system(
      (environment + " " + std::string(HYDROBULLET_PATH) + " " + arguments + " >/dev/null 2>" + errors).c_str());
  return WEXITSTATUS(status);
}

// How many distinct colours the image has: a shaded scene has many, a blank one few.
size_t CountColours(const Image& image) {
  std::set<int> colours;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = image.At(x, y);
      colours.insert((p[0] << 16) | (p[1] << 8) | p[2]);
    }
  return colours.size();
}

// Warm (red over green and blue) and cold (blue over red) pressure colours within a tenth of the
// image about its centre, and warm ones away from it (the colour bar at the left aside).
struct PressurePixels {
  int warm{0}, cold{0}, warm_far{0};
};
PressurePixels CountPressurePixels(const Image& image) {
  PressurePixels counts;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = image.At(x, y);
      const bool is_warm = p[0] > 150 && p[0] > p[1] + 60 && p[0] > p[2] + 60;
      const bool is_cold = p[2] > 150 && p[2] > p[0] + 60 && p[2] > p[1] + 30;
      const bool near =
          std::abs(x - image.width / 2) < image.width / 10 && std::abs(y - image.height / 2) < image.width / 10;
      if (near)
        counts.warm += is_warm, counts.cold += is_cold;
      else if (x > image.width / 5)
        counts.warm_far += is_warm;
    }
  return counts;
}

// A compliant ball (E = 1e5 Pa, 5 cm) resting at the bottom of the plate's bowl, seen from straight
// above: the patch (drawn over the ball) is at the image's centre, its highest pressure in the
// middle, coloured red, its rim blue. Stock Bullet on the same scene has no patch to draw.
TEST(RenderTest, TheRestingBallsPatchIsWarmUnderTheBall) {
  const fs::path image_path = fs::temp_directory_path() / ("hydrobullet_render_" + std::to_string(::getpid()) + ".png");
  const std::string command = "render " + std::string(SCENES_DIR) +
                              "/ball_on_plate.sdf --set ball.pose=0,0,0.016,0,0,0 --time 0.3 --camera 0,0,0.2,0,0,0 "
                              "--width 480 --height 360 --out " +
                              image_path.string();
  ASSERT_EQ(Tool(command), 0);
  Image image;
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  EXPECT_EQ(image.width, 480);
  EXPECT_EQ(image.height, 360);
  const size_t colours = CountColours(image);
  EXPECT_GT(colours, 50u) << "a shaded scene, not a blank image";
  const PressurePixels patch = CountPressurePixels(image);
  std::printf("patch contact: %zu colours; near the centre %d warm and %d cold pixels; %d warm elsewhere\n", colours,
              patch.warm, patch.cold, patch.warm_far);
  EXPECT_GT(patch.warm, 20) << "high pressure under the ball";
  EXPECT_GT(patch.cold, 5) << "low pressure at the patch's rim";
  EXPECT_EQ(patch.warm_far, 0);

  ASSERT_EQ(Tool(command + " --no-plugin"), 0);
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  const PressurePixels stock = CountPressurePixels(image);
  EXPECT_EQ(stock.warm + stock.cold, 0) << "stock Bullet: no patch";
  fs::remove(image_path);
}

// An FEM body is coloured by strain, with its own colour bar at the right (0.84 to 0.865 of the
// width, 0.2 to 0.8 of the height): red at its top, blue at its bottom, labelled to its right in
// dark glyphs. Text comes from the DejaVu font through FTGL; without a font file the labels are
// drawn in strokes instead, and the picture is still made.
TEST(RenderTest, StrainHasItsOwnLabelledColourBar) {
  const fs::path image_path = fs::temp_directory_path() / ("hydrobullet_strain_" + std::to_string(::getpid()) + ".png");
  const std::string command = "render " + std::string(SCENES_DIR) +
                              "/soft_block.sdf --time 0.2 --width 640 --height 400 "
                              "--out " +
                              image_path.string();
  struct Bar {
    int red_top{0}, blue_bottom{0}, dark_labels{0};
  };
  auto read_bar = [&](Bar* bar, Image* image) {
    ASSERT_TRUE(ReadPng(image_path.string(), image));
    for (int y = 0; y < image->height; ++y)
      for (int x = 0; x < image->width; ++x) {
        const unsigned char* p = image->At(x, y);
        const double fx = static_cast<double>(x) / image->width, fy = static_cast<double>(y) / image->height;
        if (fx > 0.845 && fx < 0.86 && fy > 0.21 && fy < 0.25)
          bar->red_top += p[0] > 150 && p[0] > p[1] + 60 && p[0] > p[2] + 60;
        if (fx > 0.845 && fx < 0.86 && fy > 0.75 && fy < 0.79)
          bar->blue_bottom += p[2] > 150 && p[2] > p[0] + 60 && p[2] > p[1] + 30;
        if (fx > 0.87 && fy > 0.15 && fy < 0.85) bar->dark_labels += p[0] < 90 && p[1] < 90 && p[2] < 90;
      }
  };
  Bar with_font, with_strokes;
  Image font_image, stroke_image;
  ASSERT_EQ(Tool(command), 0);
  read_bar(&with_font, &font_image);
  const std::string errors = image_path.string() + ".stderr";
  ASSERT_EQ(Tool(command, "HYDROBULLET_FONT=/nonexistent/font.ttf", errors), 0);
  read_bar(&with_strokes, &stroke_image);
  // The missing font is said once, naming the file, however many labels are drawn.
  std::ifstream said(errors);
  const std::string message((std::istreambuf_iterator<char>(said)), std::istreambuf_iterator<char>());
  const std::string expected = "no font at /nonexistent/font.ttf";
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_EQ(message.find(expected), message.rfind(expected)) << message;
  fs::remove(errors);
  std::printf("strain bar: %d red at its top, %d blue at its bottom, label pixels %d (font), %d (strokes)\n",
              with_font.red_top, with_font.blue_bottom, with_font.dark_labels, with_strokes.dark_labels);
  EXPECT_GT(with_font.red_top, 50);
  EXPECT_GT(with_font.blue_bottom, 50);
  EXPECT_GT(with_font.dark_labels, 30);
  EXPECT_GT(with_strokes.dark_labels, 30);
  EXPECT_NE(font_image.rgb, stroke_image.rgb) << "the font was used";
  // The resting ball has no FEM body: no strain bar.
  ASSERT_EQ(Tool("render " + std::string(SCENES_DIR) + "/ball_on_plate.sdf --width 640 --height 400 --out " +
                 image_path.string()),
            0);
  Bar none;
  Image ball;
  read_bar(&none, &ball);
  EXPECT_EQ(none.red_top + none.blue_bottom, 0);
  fs::remove(image_path);
}

std::string Output(const std::string& command) {
  std::string text;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof(buffer), pipe)) text += buffer;
    ::pclose(pipe);
  }
  return text;
}

// run --video: 0.3 s of the coin at 30 frames per simulated second is 10 frames (t = 0 to 0.3 s),
// encoded at the size asked for; without ffmpeg the run stops before it starts, saying so.
TEST(RenderTest, RunWritesAVideoThroughFfmpeg) {
  const fs::path dir = fs::temp_directory_path() / ("hydrobullet_video_" + std::to_string(::getpid()));
  const std::string video = (dir / "coin.mp4").string();
  const std::string run = "run " + std::string(SCENES_DIR) + "/coin.sdf --duration 0.3 --out " + dir.string() +
                          " --width 320 --height 180 --video " + video;
  ASSERT_EQ(Tool(run), 0);
  EXPECT_EQ(
      Output("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height "
             "-of csv=p=0 " +
             video),
      "320,180,10\n");
  fs::remove_all(dir);
  const std::string missing =
      Output("HYDROBULLET_FFMPEG=/nonexistent/ffmpeg " + std::string(HYDROBULLET_PATH) + " " + run + " 2>&1");
  EXPECT_NE(missing.find("--video needs ffmpeg, and '/nonexistent/ffmpeg' does not run: install it (Debian: apt-get "
                         "install ffmpeg)"),
            std::string::npos)
      << missing;
  EXPECT_FALSE(fs::exists(dir / "contacts.csv")) << "stopped before running";
  fs::remove_all(dir);
}

#ifdef HYDRO_BULLET_VIEWER
// The live viewer under Xvfb: 100 frames of the resting ball seen from above (one step a frame),
// then a screenshot of the window: a picture, with the patch's pressure colours at the ball.
TEST(ViewerTest, TheWindowShowsThePatchUnderXvfb) {
  const fs::path image_path = fs::temp_directory_path() / ("hydrobullet_view_" + std::to_string(::getpid()) + ".png");
  // Under AddressSanitizer the X and GLX libraries' own allocations at exit are not ours to find:
  // leak detection is off for this child only (every other check stays on).
  const std::string command = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 xvfb-run -a -s '-screen 0 1024x768x24' " +
                              std::string(HYDROBULLET_PATH) + " view " + std::string(SCENES_DIR) +
                              "/ball_on_plate.sdf --set ball.pose=0,0,0.016,0,0,0 --camera 0,0,0.2,0,0,0 --width 480 "
                              "--height 360 --frames 100 --screenshot " +
                              image_path.string() + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << command;
  Image image;
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  EXPECT_EQ(image.width, 480);
  EXPECT_EQ(image.height, 360);
  const size_t colours = CountColours(image);
  const PressurePixels patch = CountPressurePixels(image);
  std::printf("viewer under Xvfb: %zu colours; near the centre %d warm and %d cold pixels; %d warm elsewhere\n",
              colours, patch.warm, patch.cold, patch.warm_far);
  EXPECT_GT(colours, 50u) << "not blank";
  EXPECT_GT(patch.warm, 20);
  EXPECT_GT(patch.cold, 5);
  fs::remove(image_path);
}

// The numbers after "WORD " in the first line of `text` that starts with `line`: `count` of them.
bool Reported(const std::string& text, const std::string& line, const std::string& word, int count, double* values) {
  const size_t at = text.find(line);
  if (at == std::string::npos) return false;
  std::istringstream row(text.substr(at, text.find('\n', at) - at));
  std::string token;
  while (row >> token)
    if (token == word) {
      for (int i = 0; i < count; ++i)
        if (!(row >> values[i])) return false;
      return true;
    }
  return false;
}
double Reported(const std::string& text, const std::string& line, const std::string& word) {
  double value = NAN;
  Reported(text, line, word, 1, &value);
  return value;
}

// The viewer's controls, driven by a script of input events through the window's own handlers
// (viewer_script.h), checked against what each must do on the resting ball seen from straight
// above at 480 × 360 (35° field of view, 0.2 m away, one 1 ms step a frame):
// - a left drag from the ball (the window's centre) 60 pixels right picks it up and pulls it toward
//   the image's right, world −y (the camera's side vector looking down z);
// - a left drag from empty space 100 pixels right and 30 down orbits: yaw −0.008·100, pitch up to
//   its clamp at 1.5;
// - a right drag 40 pixels down pans the target by 40 pixels' worth at 0.2 m, 2·0.2·tan(17.5°)/360
//   a pixel;
// - two wheel steps zoom to 0.9² of the distance;
// - a click at x = 400 on the slider (0.62 to 0.95 of the width) sets it to (400 − 297.6)/158.4;
// - 'p' shows the solver's points; space at frame 70 pauses, so 100 frames simulate 70 steps.
TEST(ViewerTest, ScriptedInputOrbitsPansZoomsSlidesAndPullsTheBall) {
  const fs::path script = fs::temp_directory_path() / ("hydrobullet_view_input_" + std::to_string(::getpid()));
  {
    std::ofstream out(script);
    out << "5 press left 240 180\n6 move 260 180\n10 move 300 180\n40 release 300 180\n"
           "45 press left 20 20\n46 move 120 50\n47 release 120 50\n"
           "50 press right 200 200\n51 move 200 240\n52 release 200 240\n"
           "55 scroll 2\n"
           "60 press left 400 342\n61 release 400 342\n"
           "65 key p\n70 key space\n";
  }
  const std::string view = "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 xvfb-run -a -s '-screen 0 1024x768x24' " +
                           std::string(HYDROBULLET_PATH) + " view " + std::string(SCENES_DIR) +
                           "/ball_on_plate.sdf --set ball.pose=0,0,0.016,0,0,0 --camera 0,0,0.2,0,0,0 --width 480 "
                           "--height 360 --frames 100 2>/dev/null";
  const std::string still = Output(view);
  const std::string text = Output(view + " --input " + script.string());
  std::printf("without input:\n%swith the script:\n%s", still.c_str(), text.c_str());
  fs::remove(script);
  double ball[3] = {NAN, NAN, NAN}, target[3] = {NAN, NAN, NAN};
  // Without input the view and the ball stay as they were.
  EXPECT_NE(still.find("100 frames, t = 0.1 s"), std::string::npos);
  EXPECT_EQ(Reported(still, "camera", "distance"), 0.2);
  EXPECT_EQ(Reported(still, "speed slider", "picks"), 0);
  ASSERT_TRUE(Reported(still, "body ball::body", "ball::body", 3, ball));
  EXPECT_NEAR(ball[1], 0, 1e-9);
  // With it:
  EXPECT_NE(text.find("100 frames, t = 0.07 s"), std::string::npos) << "paused after 70 steps";
  EXPECT_NEAR(Reported(text, "camera", "yaw"), -0.8, 1e-9);
  EXPECT_NEAR(Reported(text, "camera", "pitch"), 1.5, 1e-9);
  EXPECT_NEAR(Reported(text, "camera", "distance"), 0.2 * 0.81, 1e-9);
  const double pan = 40 * 2 * 0.2 * std::tan(17.5 * M_PI / 180) / 360;
  ASSERT_TRUE(Reported(text, "camera", "target", 3, target));
  EXPECT_NEAR(std::sqrt(target[0] * target[0] + target[1] * target[1] + target[2] * target[2]), pan, 1e-6 * pan);
  EXPECT_NEAR(Reported(text, "speed slider", "slider"), (400 - 0.62 * 480) / (0.33 * 480), 1e-9);
  EXPECT_EQ(Reported(text, "speed slider", "paused"), 1);
  EXPECT_EQ(Reported(text, "speed slider", "points"), 1);
  EXPECT_EQ(Reported(text, "speed slider", "picks"), 1);
  ASSERT_TRUE(Reported(text, "body ball::body", "ball::body", 3, ball));
  EXPECT_LT(ball[1], -2e-3) << "pulled toward the image's right (measured −4.8 mm)";
  EXPECT_NEAR(ball[0], 0, 1e-4);
}

// A malformed script stops the viewer before it opens a window, naming the file and line.
TEST(ViewerTest, AMalformedScriptIsReportedWithItsLine) {
  const fs::path script = fs::temp_directory_path() / ("hydrobullet_view_bad_" + std::to_string(::getpid()));
  std::ofstream(script) << "1 key space\n2 press left 10\n";
  const std::string text = Output(std::string(HYDROBULLET_PATH) + " view " + std::string(SCENES_DIR) +
                                  "/ball_on_plate.sdf --frames 3 --input " + script.string() + " 2>&1; echo rc=$?");
  fs::remove(script);
  EXPECT_NE(text.find("hydrobullet: " + script.string() + ":2: press needs a button and pixels X Y"), std::string::npos)
      << text;
  EXPECT_NE(text.find("rc=1"), std::string::npos) << text;
}
#endif

// Without --out, and with a bad size, render refuses with a usage error.
TEST(RenderTest, UsageErrors) {
  EXPECT_EQ(Tool("render " + std::string(SCENES_DIR) + "/ball_on_plate.sdf"), 2);
  EXPECT_EQ(Tool("render " + std::string(SCENES_DIR) + "/ball_on_plate.sdf --out x.png --width 3"), 2);
  EXPECT_EQ(Tool("render " + std::string(SCENES_DIR) + "/ball_on_plate.sdf --out x.png --camera 1,2"), 2);
}

}  // namespace
}  // namespace hydro
