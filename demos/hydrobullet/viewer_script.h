#pragma once
// Input for `hydrobullet view --input FILE`: the keys and mouse events a person would give the
// viewer, each at a frame, replayed through the same handlers as the window's own events. Tests
// drive the viewer with it (orbit, pan, zoom, the slider, pulling a body, the keys), and a user
// can replay what led to a problem.
//
// One event a line, `#` starts a comment; x and y are window pixels from the top left:
//   FRAME key space|period|p|escape
//   FRAME press left|right X Y
//   FRAME move X Y
//   FRAME release X Y
//   FRAME scroll DY
// Frames count from 0 and do not decrease down the file.
#include <string>
#include <vector>

namespace hydro {
namespace cli {

struct ViewerEvent {
  enum class Kind { kKey, kPress, kMove, kRelease, kScroll };
  int frame{0};
  Kind kind{Kind::kKey};
  char key{0};        // kKey: ' ', '.', 'p', or 27 (escape)
  bool right{false};  // kPress: the right button (else the left)
  double x{0}, y{0};  // kPress, kMove, kRelease
  double scroll{0};   // kScroll: wheel steps, positive zooms in
};

// Reads `path`. On failure returns false with "path:line: what" in *error.
bool ReadViewerScript(const std::string& path, std::vector<ViewerEvent>* events, std::string* error);
// The same, from text (`name` stands for the file in messages).
bool ParseViewerScript(const std::string& text, const std::string& name, std::vector<ViewerEvent>* events,
                       std::string* error);

}  // namespace cli
}  // namespace hydro
