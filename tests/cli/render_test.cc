// `hydrobullet render` headless: the resting-ball scene drawn offscreen, decoded and checked — its
// size, that it is a picture (many colours), and the pressure colours of the patch under the ball.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
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

int Tool(const std::string& arguments) {
  const int status = std::system((std::string(HYDROBULLET_PATH) + " " + arguments + " >/dev/null 2>&1").c_str());
  return WEXITSTATUS(status);
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
      const bool near = std::abs(x - image.width / 2) < image.width / 10 && std::abs(y - image.height / 2) < image.width / 10;
      if (near) counts.warm += is_warm, counts.cold += is_cold;
      else if (x > image.width / 5) counts.warm_far += is_warm;
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
                              "--width 480 --height 360 --out " + image_path.string();
  ASSERT_EQ(Tool(command), 0);
  Image image;
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  EXPECT_EQ(image.width, 480);
  EXPECT_EQ(image.height, 360);
  std::set<int> colours;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = image.At(x, y);
      colours.insert((p[0] << 16) | (p[1] << 8) | p[2]);
    }
  EXPECT_GT(colours.size(), 50u) << "a shaded scene, not a blank image";
  const PressurePixels patch = CountPressurePixels(image);
  std::printf("patch contact: %zu colours; near the centre %d warm and %d cold pixels; %d warm elsewhere\n",
              colours.size(), patch.warm, patch.cold, patch.warm_far);
  EXPECT_GT(patch.warm, 20) << "high pressure under the ball";
  EXPECT_GT(patch.cold, 5) << "low pressure at the patch's rim";
  EXPECT_EQ(patch.warm_far, 0);

  ASSERT_EQ(Tool(command + " --no-plugin"), 0);
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  const PressurePixels stock = CountPressurePixels(image);
  EXPECT_EQ(stock.warm + stock.cold, 0) << "stock Bullet: no patch";
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
  EXPECT_EQ(Output("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height "
                   "-of csv=p=0 " + video),
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
                              std::string(HYDROBULLET_PATH) + " view " +
                              std::string(SCENES_DIR) +
                              "/ball_on_plate.sdf --set ball.pose=0,0,0.016,0,0,0 --camera 0,0,0.2,0,0,0 --width 480 "
                              "--height 360 --frames 100 --screenshot " + image_path.string() + " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(WEXITSTATUS(status), 0) << command;
  Image image;
  ASSERT_TRUE(ReadPng(image_path.string(), &image));
  EXPECT_EQ(image.width, 480);
  EXPECT_EQ(image.height, 360);
  std::set<int> colours;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = image.At(x, y);
      colours.insert((p[0] << 16) | (p[1] << 8) | p[2]);
    }
  const PressurePixels patch = CountPressurePixels(image);
  std::printf("viewer under Xvfb: %zu colours; near the centre %d warm and %d cold pixels; %d warm elsewhere\n",
              colours.size(), patch.warm, patch.cold, patch.warm_far);
  EXPECT_GT(colours.size(), 50u) << "not blank";
  EXPECT_GT(patch.warm, 20);
  EXPECT_GT(patch.cold, 5);
  fs::remove(image_path);
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
