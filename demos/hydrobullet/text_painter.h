#pragma once
// Text in pictures and the viewer's overlay: TrueType glyphs through FTGL (Debian's libftgl, a
// well-kept OpenGL text library, rather than a glyph rasterizer of our own) from DejaVu Sans
// (fonts-dejavu-core), or the font in HYDROBULLET_FONT. Without a font file it falls back to
// seven-segment strokes, legible for numbers only.
#include <memory>
#include <string>

class FTFont;

namespace hydro {
namespace cli {

class TextPainter {
 public:
  TextPainter();
  ~TextPainter();
  // Draws `text` with its baseline's left end at (x, y) in the current 2D projection (y up),
  // characters about `height` tall. Needs a current GL context (the font is loaded at the first
  // call, into that context).
  void Draw(const std::string& text, double x, double y, double height);
  // Whether glyphs come from a font file (false: the strokes), once Draw has run.
  bool has_font() const { return font_ != nullptr; }

 private:
  std::unique_ptr<FTFont> font_;
  bool tried_{false};
};

// The seven-segment fallback: digits, '.', '+', '-', 'e', 'P', 'a' and ' ' only.
void DrawStrokeText(const std::string& text, double x, double y, double height);

}  // namespace cli
}  // namespace hydro
