// The viewer's input scripts: every event kind read back, and malformed lines refused with the
// file and line.
#include "demos/hydrobullet/viewer_script.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hydro {
namespace cli {
namespace {

TEST(ViewerScriptTest, ReadsEveryEventKind) {
  std::vector<ViewerEvent> events;
  std::string error;
  ASSERT_TRUE(
      ParseViewerScript("# a drag\n"
                        "3 press left 10 20.5\n"
                        "\n"
                        "3 move 11 -2   # past the window's edge is allowed\n"
                        "4 release 11 -2\n"
                        "7 press right 1 2\n"
                        "9 scroll -1.5\n"
                        "9 key space\n"
                        "10 key period\n"
                        "11 key p\n"
                        "12 key escape\n",
                        "s.txt", &events, &error))
      << error;
  ASSERT_EQ(events.size(), 9u);
  EXPECT_EQ(events[0].frame, 3);
  EXPECT_EQ(events[0].kind, ViewerEvent::Kind::kPress);
  EXPECT_FALSE(events[0].right);
  EXPECT_EQ(events[0].x, 10);
  EXPECT_EQ(events[0].y, 20.5);
  EXPECT_EQ(events[1].kind, ViewerEvent::Kind::kMove);
  EXPECT_EQ(events[1].y, -2);
  EXPECT_EQ(events[2].kind, ViewerEvent::Kind::kRelease);
  EXPECT_TRUE(events[3].right);
  EXPECT_EQ(events[4].kind, ViewerEvent::Kind::kScroll);
  EXPECT_EQ(events[4].scroll, -1.5);
  EXPECT_EQ(events[5].key, ' ');
  EXPECT_EQ(events[6].key, '.');
  EXPECT_EQ(events[7].key, 'p');
  EXPECT_EQ(events[8].key, 27);
  EXPECT_EQ(events[8].frame, 12);
}

TEST(ViewerScriptTest, RefusesMalformedLinesWithFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"1 key space\nx key p\n", "s.txt:2: 'x' is not a frame number"},
      {"-1 key p\n", "s.txt:1: '-1' is not a frame number"},
      {"5 key p\n4 key p\n", "s.txt:2: frame 4 comes after frame 5"},
      {"1\n", "s.txt:1: an event"},
      {"1 jump\n", "s.txt:1: unknown event 'jump'"},
      {"1 key q\n", "s.txt:1: unknown key 'q'"},
      {"1 press middle 1 2\n", "s.txt:1: press needs a button"},
      {"1 press left 1\n", "s.txt:1: press needs a button and pixels X Y"},
      {"1 move 1 nan\n", "s.txt:1: move needs pixels X Y"},
      {"1 release 1 2x\n", "s.txt:1: release needs pixels X Y"},
      {"1 scroll\n", "s.txt:1: scroll needs a number"},
      {"1 scroll 1 2\n", "s.txt:1: unexpected '2' after the scroll event"},
  };
  for (const auto& [text, message] : cases) {
    std::vector<ViewerEvent> events;
    std::string error;
    EXPECT_FALSE(ParseViewerScript(text, "s.txt", &events, &error)) << text;
    EXPECT_EQ(error.rfind(message, 0), 0u) << text << " gave: " << error;
  }
  std::vector<ViewerEvent> events;
  std::string error;
  EXPECT_FALSE(ReadViewerScript("/nonexistent/events.txt", &events, &error));
  EXPECT_EQ(error, "/nonexistent/events.txt: cannot read the viewer's input");
}

}  // namespace
}  // namespace cli
}  // namespace hydro
