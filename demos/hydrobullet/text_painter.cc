#include "demos/hydrobullet/text_painter.h"

#include <FTGL/ftgl.h>
#include <GL/gl.h>

#include <cstdlib>

namespace hydro {
namespace cli {

namespace {

constexpr const char* kDefaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// Seven-segment strokes in a unit cell 0.6 wide, 1 tall: a top, b top right, c bottom right,
// d bottom, e bottom left, f top left, g middle.
const char* Segments(char c) {
  switch (c) {
    case '0':
      return "abcdef";
    case '1':
      return "bc";
    case '2':
      return "abged";
    case '3':
      return "abgcd";
    case '4':
      return "fgbc";
    case '5':
      return "afgcd";
    case '6':
      return "afgedc";
    case '7':
      return "abc";
    case '8':
      return "abcdefg";
    case '9':
      return "abcdfg";
    case '-':
      return "g";
    case 'e':
      return "adefg";
    case 'P':
    case 'p':
      return "abefg";
    case 'a':
      return "abcdeg";
    case 'b':
      return "cdefg";
    case 'c':
      return "deg";
    case 'd':
      return "bcdeg";
    case 'f':
      return "aefg";
    case 'g':
      return "abcdfg";
    case 'h':
      return "cefg";
    case 'i':
      return "c";
    case 'l':
      return "ef";
    case 'm':
    case 'n':
      return "ceg";
    case 'o':
      return "cdeg";
    case 'r':
      return "eg";
    case 's':
      return "afgcd";
    case 't':
      return "defg";
    case 'u':
    case 'v':
    case 'w':
      return "cde";
    case 'x':
      return "bcefg";
    case 'y':
      return "bcdfg";
    default:
      return "";
  }
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
    if (!font->Error() && font->FaceSize(48)) font_ = std::move(font);
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
