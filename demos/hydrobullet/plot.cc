#include "demos/hydrobullet/plot.h"

#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "demos/hydrobullet/commands.h"

namespace hydro {
namespace cli {

namespace {

int PlotFail(const std::string& reason) { return Fail("plot: " + reason); }

// A CSV log as written by `run`: its header's column names and its rows' fields.
struct Log {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  int Column(const std::string& name) const {
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return static_cast<int>(i);
    return -1;
  }
};

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
  return fields;
}

// Reads `path`, checking it has `required` columns and every row the header's width; false with
// *error naming the file and line otherwise.
bool ReadLog(const std::string& path, const std::vector<std::string>& required, Log* log, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = path + ": cannot read (run `hydrobullet run ... --out DIR` first)";
    return false;
  }
  std::string line;
  if (!std::getline(in, line)) {
    *error = path + ":1: empty";
    return false;
  }
  log->columns = SplitCsv(line);
  for (const std::string& name : required)
    if (log->Column(name) < 0) {
      *error = path + ":1: no column '" + name + "'";
      return false;
    }
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    log->rows.push_back(SplitCsv(line));
    if (log->rows.back().size() != log->columns.size()) {
      *error = path + ":" + std::to_string(number) + ": " + std::to_string(log->rows.back().size()) +
               " fields, the header has " + std::to_string(log->columns.size());
      return false;
    }
  }
  return true;
}

bool Number(const std::string& text, double* value) {
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(*value);
}

// A file name from a body or pair name: letters, digits, '-' and '.' kept, the rest '_'.
std::string FileName(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
  return out;
}

// gnuplot strings are double-quoted; quotes and backslashes in names are escaped.
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Terminal(const PlotOptions& options, const std::string& png) {
  return "set terminal pngcairo size " + std::to_string(options.width_px) + "," + std::to_string(options.height_px) +
         " enhanced font 'sans,10'\nset output " + Quoted(png) + "\nset grid\nset key outside right top\n";
}

// Runs gnuplot on `script`; false with *error when it cannot be run or fails.
bool RunGnuplot(const PlotOptions& options, const std::string& script, std::string* error) {
  const std::string command = options.gnuplot + " " + Quoted(script) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    *error = "cannot run " + options.gnuplot;
    return false;
  }
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof(buffer), pipe)) output += buffer;
  const int status = ::pclose(pipe);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    *error = options.gnuplot + " not found: install it (Debian: apt-get install gnuplot-nox)";
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = options.gnuplot + " failed on " + script + ": " + output.substr(0, output.find('\n'));
    return false;
  }
  return true;
}

// One pair's four panels against time, from its data file's columns: 1 t, 2 fn, 3 area,
// 4 max pressure, 5–7 centre of pressure.
std::string PairScript(const PlotOptions& options, const std::string& title, const std::string& data,
                       const std::string& png) {
  const std::string d = Quoted(data);
  std::ostringstream s;
  s << Terminal(options, png) << "set multiplot layout 2,2 title " << Quoted(title) << "\n"
    << "set xlabel 'time (s)'\n"
    << "set ylabel 'normal force (N)'\nset title 'normal force'\nplot " << d
    << " using 1:2 with lines lw 2 title 'f_n'\n"
    << "set ylabel 'contact area (m^2)'\nset title 'contact area'\nplot " << d
    << " using 1:3 with lines lw 2 title 'area'\n"
    << "set ylabel 'max pressure (Pa)'\nset title 'max pressure'\nplot " << d
    << " using 1:4 with lines lw 2 title 'p_{max}'\n"
    << "set ylabel 'centre of pressure (m)'\nset title 'centre of pressure'\nplot " << d
    << " using 1:5 with lines lw 2 title 'x', '' using 1:6 with lines lw 2 title 'y', '' using 1:7 with lines lw 2 "
       "title 'z'\n"
    << "unset multiplot\n";
  return s.str();
}

}  // namespace

int Plot(const PlotOptions& options) {
  namespace fs = std::filesystem;
  const std::string out_dir = options.out_dir.empty() ? options.run_dir + "/plots" : options.out_dir;
  std::string error;
  Log contacts, bodies;
  if (!ReadLog(options.run_dir + "/contacts.csv", {"time", "a", "b", "area", "max_pressure", "fn", "cx", "cy", "cz"},
               &contacts, &error) ||
      !ReadLog(options.run_dir + "/bodies.csv", {"time", "body", "vx", "vy", "vz", "wx", "wy", "wz"}, &bodies, &error))
    return PlotFail(error);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) return PlotFail("cannot create " + out_dir + ": " + ec.message());

  // Contacts, pair by pair in the order they first appear.
  std::vector<std::string> pairs, pair_files;
  std::map<std::string, std::ostringstream> pair_data;
  const int t = contacts.Column("time"), a = contacts.Column("a"), b = contacts.Column("b");
  const int columns[] = {contacts.Column("fn"), contacts.Column("area"), contacts.Column("max_pressure"),
                         contacts.Column("cx"), contacts.Column("cy"),   contacts.Column("cz")};
  for (size_t r = 0; r < contacts.rows.size(); ++r) {
    const auto& row = contacts.rows[r];
    const std::string pair = row[a] + " – " + row[b];
    if (!pair_data.count(pair)) {
      pairs.push_back(pair);
      pair_files.push_back(FileName(row[a]) + "__" + FileName(row[b]));
    }
    std::ostringstream& data = pair_data[pair];
    double value;
    if (!Number(row[t], &value))
      return PlotFail(options.run_dir + "/contacts.csv:" + std::to_string(r + 2) + ": bad time");
    data << row[t];
    for (int c : columns) {
      if (!Number(row[c], &value))
        return PlotFail(options.run_dir + "/contacts.csv:" + std::to_string(r + 2) + ": bad " + contacts.columns[c]);
      data << ' ' << row[c];
    }
    data << '\n';
  }
  int written = 0;
  for (size_t k = 0; k < pairs.size(); ++k) {
    const std::string stem = out_dir + "/pair" + std::to_string(k) + "_" + pair_files[k];
    std::ofstream(stem + ".dat") << pair_data[pairs[k]].str();
    std::ofstream(stem + ".gp") << PairScript(options, pairs[k], stem + ".dat", stem + ".png");
    if (!RunGnuplot(options, stem + ".gp", &error)) return PlotFail(error);
    ++written;
  }

  // Bodies: speed and angular speed, one line per body that moves at some time.
  std::vector<std::string> names;
  std::map<std::string, std::ostringstream> body_data;
  std::map<std::string, bool> moves;
  const int bt = bodies.Column("time"), bn = bodies.Column("body");
  const int v[] = {bodies.Column("vx"), bodies.Column("vy"), bodies.Column("vz")};
  const int w[] = {bodies.Column("wx"), bodies.Column("wy"), bodies.Column("wz")};
  for (size_t r = 0; r < bodies.rows.size(); ++r) {
    const auto& row = bodies.rows[r];
    double time, vv[3], ww[3];
    bool ok = Number(row[bt], &time);
    for (int i = 0; i < 3; ++i) ok = ok && Number(row[v[i]], &vv[i]) && Number(row[w[i]], &ww[i]);
    if (!ok) return PlotFail(options.run_dir + "/bodies.csv:" + std::to_string(r + 2) + ": bad number");
    const std::string& name = row[bn];
    if (!body_data.count(name)) names.push_back(name);
    const double speed = std::sqrt(vv[0] * vv[0] + vv[1] * vv[1] + vv[2] * vv[2]);
    const double spin = std::sqrt(ww[0] * ww[0] + ww[1] * ww[1] + ww[2] * ww[2]);
    moves[name] = moves[name] || speed > 0 || spin > 0;
    body_data[name] << row[bt] << ' ' << speed << ' ' << spin << '\n';
  }
  std::string speed_plot, spin_plot;
  for (size_t k = 0; k < names.size(); ++k) {
    if (!moves[names[k]]) continue;
    const std::string data = out_dir + "/body" + std::to_string(k) + "_" + FileName(names[k]) + ".dat";
    std::ofstream(data) << body_data[names[k]].str();
    speed_plot +=
        (speed_plot.empty() ? "plot " : ", ") + Quoted(data) + " using 1:2 with lines lw 2 title " + Quoted(names[k]);
    spin_plot +=
        (spin_plot.empty() ? "plot " : ", ") + Quoted(data) + " using 1:3 with lines lw 2 title " + Quoted(names[k]);
  }
  if (!speed_plot.empty()) {
    const std::string stem = out_dir + "/bodies_speed";
    std::ofstream(stem + ".gp") << Terminal(options, stem + ".png") << "set multiplot layout 2,1 title 'bodies'\n"
                                << "set xlabel 'time (s)'\nset ylabel 'speed (m/s)'\nset title 'linear speed'\n"
                                << speed_plot << "\nset ylabel 'angular speed (rad/s)'\nset title 'angular speed'\n"
                                << spin_plot << "\nunset multiplot\n";
    if (!RunGnuplot(options, stem + ".gp", &error)) return PlotFail(error);
    ++written;
  }
  std::printf("%d plot(s) in %s (%zu pair(s), %zu moving bodies)\n", written, out_dir.c_str(), pairs.size(),
              static_cast<size_t>(std::count_if(moves.begin(), moves.end(), [](const auto& m) { return m.second; })));
  return 0;
}

}  // namespace cli
}  // namespace hydro
