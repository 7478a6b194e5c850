#include "demos/hydrobullet/text_painter.h"

#include <FTGL/ftgl.h>
#include <GL/gl.h>

#include <cstdio>
#include <cstdlib>

namespace hydro {
namespace cli {

namespace {

constexpr const char* kDefaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Seven-segment strokes in a unit cell 0.6 wide, 1 tall: a top, b top right, c bottom right,
// d bottom, e bottom left, f top left, g middle.
const char* Segments(char c) {
  // One entry per character drawn; others draw nothing.
  static constexpr struct {
    char c;
    const char* segments;
  } kTable[] = {
      {'0', "abcdef"}, {'1', "bc"},     {'2', "abged"},   {'3', "abgcd"},  {'4', "fgbc"}, {'5', "afgcd"},
      {'6', "afgedc"}, {'7', "abc"},    {'8', "abcdefg"}, {'9', "abcdfg"}, {'-', "g"},    {'e', "adefg"},
      {'P', "abefg"},  {'p', "abefg"},  {'a', "abcdeg"},  {'b', "cdefg"},  {'c', "deg"},  {'d', "bcdeg"},
      {'f', "aefg"},   {'g', "abcdfg"}, {'h', "cefg"},    {'i', "c"},      {'l', "ef"},   {'m', "ceg"},
      {'n', "ceg"},    {'o', "cdeg"},   {'r', "eg"},      {'s', "afgcd"},  {'t', "defg"}, {'u', "cde"},
      {'v', "cde"},    {'w', "cde"},    {'x', "bcefg"},   {'y', "bcdfg"},
  };
  for (const auto& entry : kTable)
    if (entry.c == c) return entry.segments;
  return "";
}

}  // namespace

TextPainter::TextPainter() = default;
TextPainter::~TextPainter() = default;

void TextPainter::Draw(const std::string& text, double x, double y, double height) {
  if (!tried_) {
    tried_ = true;
    const char* path = std::getenv("HYDROBULLET_FONT");
    // Glyphs as textures: drawn as quads in the current projection, so they follow its scale.
    auto font = std::make_unique<FTTextureFont>(path && *path ? path : kDefaultFont);
    if (!font->Error() && font->FaceSize(48))
      font_ = std::move(font);
    else  // said once: the readout falls back to strokes, legible but plain
      std::fprintf(stderr, "hydrobullet: no font at %s (set HYDROBULLET_FONT); labels drawn as strokes\n",
                   path && *path ? path : kDefaultFont);
  }
  if (!font_) {
    DrawStrokeText(text, x, y, height);
    return;
  }
  // Face size 48 px, scaled to `height` for the digits' height (0.73 of the size in DejaVu Sans).
  const double scale = height / (0.73 * 48);
  glPushMatrix();
  glTranslated(x, y, 0);
  glScaled(scale, scale, 1);
  font_->Render(text.c_str());
  glPopMatrix();
}

void DrawStrokeText(const std::string& text, double x, double y, double height) {
  const double w = 0.6 * height, h = height, advance = 0.9 * height;
  glBegin(GL_LINES);
  for (char ch : text) {
    const double x0 = x, y0 = y;
    auto line = [&](double ax, double ay, double bx, double by) {
      glVertex2d(x0 + ax * w, y0 + ay * h);
      glVertex2d(x0 + bx * w, y0 + by * h);
    };
    for (const char* s = Segments(ch); *s; ++s) {
      switch (*s) {
        case 'a':
          line(0, 1, 1, 1);
          break;
        case 'b':
          line(1, 1, 1, 0.5);
          break;
        case 'c':
          line(1, 0.5, 1, 0);
          break;
        case 'd':
          line(0, 0, 1, 0);
          break;
        case 'e':
          line(0, 0, 0, 0.5);
          break;
        case 'f':
          line(0, 0.5, 0, 1);
          break;
        case 'g':
          line(0, 0.5, 1, 0.5);
          break;
      }
    }
    if (ch == '+') {
      line(0, 0.5, 1, 0.5);
      line(0.5, 0.25, 0.5, 0.75);
    }
    if (ch == '.')
      for (double t = 0; t <= 0.12; t += 0.04) line(0.3, t, 0.5, t);
    x += ch == '.' ? 0.5 * advance : advance;
  }
  glEnd();
}

}  // namespace cli
}  // namespace hydro
