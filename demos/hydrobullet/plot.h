#pragma once
// `hydrobullet plot DIR`: PNG plots of a run's logs through gnuplot's pngcairo terminal (Debian's
// gnuplot-nox). Per touching pair: normal force, contact area, max pressure and centre of pressure
// against time; for the bodies: linear and angular speed against time. Each PNG's gnuplot script
// and data are written beside it, so a plot can be restyled and redrawn by hand.
#include <string>

namespace hydro {
namespace cli {

struct PlotOptions {
  std::string run_dir;  // holds contacts.csv and bodies.csv (from `hydrobullet run`)
  std::string out_dir;  // default: run_dir/plots
  int width_px{1200};
  int height_px{900};
  std::string gnuplot{"gnuplot"};  // the program run (tests point it elsewhere)
};

// Returns the exit code: 0 when every plot was written, 1 with a one-line reason on stderr (a
// missing or malformed log, gnuplot missing or failing).
int Plot(const PlotOptions& options);

}  // namespace cli
}  // namespace hydro
