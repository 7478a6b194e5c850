#include "demos/hydrobullet/viewer_script.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace hydro {
namespace cli {

namespace {

bool Number(std::istringstream& words, double* value) {
  std::string word;
  if (!(words >> word)) return false;
  char* end = nullptr;
  *value = std::strtod(word.c_str(), &end);
  return end != word.c_str() && *end == '\0' && std::isfinite(*value);
}

}  // namespace

bool ParseViewerScript(const std::string& text, const std::string& name, std::vector<ViewerEvent>* events,
                       std::string* error) {
  events->clear();
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  auto fail = [&](const std::string& what) {
    *error = name + ":" + std::to_string(line_number) + ": " + what;
    return false;
  };
  while (std::getline(lines, line)) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;  // blank or comment
    ViewerEvent event;
    char* end = nullptr;
    const long frame = std::strtol(first.c_str(), &end, 10);
    if (end == first.c_str() || *end != '\0' || frame < 0 || frame > 100000000)
      return fail("'" + first + "' is not a frame number (a whole number from 0)");
    if (!events->empty() && frame < events->back().frame)
      return fail("frame " + first + " comes after frame " + std::to_string(events->back().frame));
    event.frame = static_cast<int>(frame);
    std::string kind;
    if (!(words >> kind)) return fail("an event (key, press, move, release or scroll) must follow the frame");
    if (kind == "key") {
      event.kind = ViewerEvent::Kind::kKey;
      std::string key;
      words >> key;
      if (key == "space")
        event.key = ' ';
      else if (key == "period")
        event.key = '.';
      else if (key == "p")
        event.key = 'p';
      else if (key == "escape")
        event.key = 27;
      else
        return fail("unknown key '" + key + "' (space, period, p or escape)");
    } else if (kind == "press") {
      event.kind = ViewerEvent::Kind::kPress;
      std::string button;
      words >> button;
      if (button != "left" && button != "right") return fail("press needs a button, left or right");
      event.right = button == "right";
      if (!Number(words, &event.x) || !Number(words, &event.y)) return fail("press needs a button and pixels X Y");
    } else if (kind == "move" || kind == "release") {
      event.kind = kind == "move" ? ViewerEvent::Kind::kMove : ViewerEvent::Kind::kRelease;
      if (!Number(words, &event.x) || !Number(words, &event.y)) return fail(kind + " needs pixels X Y");
    } else if (kind == "scroll") {
      event.kind = ViewerEvent::Kind::kScroll;
      if (!Number(words, &event.scroll)) return fail("scroll needs a number of wheel steps");
    } else {
      return fail("unknown event '" + kind + "' (key, press, move, release or scroll)");
    }
    std::string extra;
    if (words >> extra) return fail("unexpected '" + extra + "' after the " + kind + " event");
    events->push_back(event);
  }
  return true;
}

bool ReadViewerScript(const std::string& path, std::vector<ViewerEvent>* events, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = path + ": cannot read the viewer's input";
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return ParseViewerScript(text.str(), path, events, error);
}

}  // namespace cli
}  // namespace hydro
