// /sse and /trickle over loopback, HTTP/1.1 and h2c: exact bytes, schedule, resume, faults, idle.
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "target_server/server.hpp"
#include "tests/target_server/h2_wire.hpp"
#include "tests/target_server/server_thread.hpp"

namespace stampede::target_server {
namespace {

namespace http = boost::beast::http;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

/// How far from its schedule a test lets an event arrive: CI machines stall.
constexpr auto schedule_slack = 5ms;

/// The parameter choosing each line end, and the line end.
const std::vector<std::pair<std::string, std::string>> sse_line_ends = {
    {"", "\n"}, {"&eol=lf", "\n"}, {"&eol=crlf", "\r\n"}, {"&eol=cr", "\r"}};

/// /sse's opening (no retry:) and its events `first` to `last`, one string each.
std::vector<std::string> sse_pieces(int first, int last, const std::string& eol = "\n") {
  std::vector<std::string> pieces = {": stampede" + eol + eol};
  for (int id = first; id <= last; ++id) {
    const auto n = std::to_string(id);
    pieces.push_back("id: " + n + eol + R"(data: {"seq":)" + n + "}" + eol + eol);
  }
  return pieces;
}

/// When each of `pieces`, one after another in `got`'s body, was whole: the arrival of the DATA
/// frame that ended it (a late timer makes two pieces due at once, and one frame brings both).
std::vector<Clock::time_point> piece_arrivals(const H2Result& got,
                                              const std::vector<std::string>& pieces) {
  std::vector<Clock::time_point> arrivals;
  std::size_t end = 0;
  std::size_t frame = 0;
  for (const auto& piece : pieces) {
    end += piece.size();
    while (frame < got.data_ends.size() && got.data_ends[frame] < end) ++frame;
    if (frame == got.data_ends.size()) break;
    arrivals.push_back(got.data_at[frame]);
  }
  return arrivals;
}

/// `pieces` joined, as a decoded body holds them.
std::string joined(const std::vector<std::string>& pieces) {
  std::string text;
  for (const auto& piece : pieces) text += piece;
  return text;
}

/// `pieces` as HTTP/1.1 chunks, one each (no last chunk).
std::string as_chunks(const std::vector<std::string>& pieces) {
  std::string wire;
  for (const auto& piece : pieces) {
    std::array<char, 16> size{};
    const auto end = std::to_chars(size.data(), size.data() + size.size(), piece.size(), 16).ptr;
    wire += std::string(size.data(), end) + "\r\n" + piece + "\r\n";
  }
  return wire;
}

std::string paced_request(const std::string& target, const std::string& fields = {}) {
  return "GET " + target + " HTTP/1.1\r\nHost: test\r\n" + fields + "\r\n";
}

/// Reads a paced response's head over HTTP/1.1, checking what every one has.
void expect_paced_head(HttpClient& client, const std::string& type) {
  const auto head = client.receive(true);
  EXPECT_EQ(head.result_int(), 200U);
  EXPECT_EQ(head[http::field::content_type], type);
  EXPECT_EQ(head[http::field::transfer_encoding], "chunked");
  EXPECT_EQ(head.count(http::field::content_length), 0U);
  EXPECT_EQ(head[http::field::cache_control], type == "text/event-stream" ? "no-cache" : "");
}

/// An h2c connection (prior knowledge) to `server`, with its client session.
struct H2cLink {
  explicit H2cLink(ServerThread& server)
      : socket(connect_loopback(context, server.server().port())) {}
  bool exchange() { return target_server::exchange(context, socket, client); }

  net::io_context context;
  tcp::socket socket;
  H2Client client;
};

/// Waits (bounded) until `server` has no request in flight; true once it has none.
bool none_in_flight(Server& server) {
  const auto give_up = Clock::now() + io_timeout;
  while (server.requests_in_flight() > 0 && Clock::now() < give_up) {
    std::this_thread::sleep_for(1ms);
  }
  return server.requests_in_flight() == 0;
}

/// When a paced exchange's request went, and when each of its pieces arrived.
struct Arrivals {
  Clock::time_point sent;
  std::vector<Clock::time_point> pieces;
};

/// Checks that no piece of `arrivals`, due every `interval`, came early, and counts those that
/// came within schedule_slack of their slot, counted from the least late.
std::size_t count_on_time(const Arrivals& arrivals, std::chrono::milliseconds interval) {
  const auto& pieces = arrivals.pieces;
  const auto slot = [&](std::size_t i) { return interval * static_cast<int>(i); };
  auto start = pieces.at(0);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    EXPECT_GE(pieces[i] - arrivals.sent, slot(i) - 1ms) << "piece " << i << " came early";
    start = std::min(start, pieces[i] - slot(i));
  }
  std::size_t on_time = 0;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    on_time += pieces[i] - slot(i) - start <= schedule_slack ? 1 : 0;
  }
  return on_time;
}

/// Checks that the exchanges `measure` makes keep to their schedule: none early, and most
/// pieces of one on time, in up to three tries. A machine's stall delays every piece under it
/// (an absolute schedule sends the later ones on time again): a CI run's sanitized pass, beside
/// the integration scripts, once had 2 of 5 on time. A server off its schedule is late in every
/// try.
template <class Measure>
void expect_on_schedule(std::chrono::milliseconds interval, Measure measure) {
  std::size_t on_time = 0;
  std::size_t count = 0;
  for (int attempt = 0; attempt < 3 && 2 * on_time <= count; ++attempt) {
    const Arrivals arrivals = measure();
    if (arrivals.pieces.empty()) return;  // the exchange failed, and said so
    on_time = count_on_time(arrivals, interval);
    count = arrivals.pieces.size();
  }
  EXPECT_GT(2 * on_time, count) << on_time << " of " << count << " on time, in the last of 3 tries";
}

/// One h2c exchange of `target` on a new connection to `server`, whose body must be `pieces`
/// joined and whose content type `type`: when each piece arrived (none if the exchange failed).
Arrivals h2c_arrivals(ServerThread& server, const std::string& target,
                      const std::vector<std::string>& pieces, const std::string& type) {
  H2cLink link(server);
  Arrivals arrivals{Clock::now(), {}};
  const auto id = link.client.submit("GET", target);
  const bool exchanged = link.exchange();
  EXPECT_TRUE(exchanged) << target;
  if (!exchanged) return arrivals;
  const auto& got = link.client.result(id);
  EXPECT_EQ(got.headers.at("content-type"), type);
  EXPECT_EQ(got.body, joined(pieces));
  arrivals.pieces = piece_arrivals(got, pieces);
  EXPECT_EQ(arrivals.pieces.size(), pieces.size());
  return arrivals;
}

TEST(TargetPacedServer, Http1SendsAnEventAChunkWithTheLineEndsAsked) {
  ServerThread server(loopback_options());
  HttpClient client(server.server().port());
  for (const auto& [parameter, eol] : sse_line_ends) {
    SCOPED_TRACE(parameter);
    client.send(paced_request("/sse?events=3&interval=10" + parameter));
    expect_paced_head(client, "text/event-stream");
    const auto wire = as_chunks(sse_pieces(1, 3, eol)) + "0\r\n\r\n";
    EXPECT_EQ(client.read_bytes(wire.size()), wire);
  }
  client.send("HEAD /sse HTTP/1.1\r\nHost: test\r\n\r\n");
  expect_paced_head(client, "text/event-stream");  // and no body: the next answer follows
  EXPECT_EQ(client.get("/sse?events=x").result_int(), 400U);
  EXPECT_EQ(client.get("/json").body(), R"({"code":200,"msg":"ok"})");  // kept alive
}

TEST(TargetPacedServer, H2cSendsTheSameEventsOnConcurrentStreams) {
  ServerThread server(loopback_options());
  H2cLink link(server);
  std::vector<std::int32_t> ids;
  for (const auto& [parameter, eol] : sse_line_ends) {
    ids.push_back(link.client.submit("GET", "/sse?events=3&interval=10" + parameter));
  }
  ASSERT_TRUE(link.exchange());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SCOPED_TRACE(sse_line_ends[i].first);
    const auto& got = link.client.result(ids[i]);
    EXPECT_EQ(got.error_code, 0U);
    EXPECT_EQ(got.headers.at(":status"), "200");
    EXPECT_EQ(got.headers.at("content-type"), "text/event-stream");
    EXPECT_EQ(got.headers.at("cache-control"), "no-cache");
    EXPECT_EQ(got.body, joined(sse_pieces(1, 3, sse_line_ends[i].second)));
  }
  const auto json = link.client.submit("GET", "/json");  // the connection goes on
  ASSERT_TRUE(link.exchange());
  EXPECT_EQ(link.client.result(json).body, R"({"code":200,"msg":"ok"})");
}

TEST(TargetPacedServer, LastEventIdResumesWithTheNextEvent) {
  ServerThread server(loopback_options());
  HttpClient client(server.server().port());
  client.send(paced_request("/sse?events=4&interval=10", "Last-Event-ID: 2\r\n"));
  expect_paced_head(client, "text/event-stream");
  const auto wire = as_chunks(sse_pieces(3, 4)) + "0\r\n\r\n";
  EXPECT_EQ(client.read_bytes(wire.size()), wire);

  H2cLink link(server);
  const auto id = link.client.submit("GET", "/sse?events=4&interval=10", {{"last-event-id", "2"}});
  ASSERT_TRUE(link.exchange());
  EXPECT_EQ(link.client.result(id).body, joined(sse_pieces(3, 4)));
}

TEST(TargetPacedServer, EventsComeOnAFixedSchedule) {
  constexpr auto interval = 20ms;
  ServerThread server(loopback_options());
  const auto pieces = sse_pieces(1, 5);
  expect_on_schedule(interval, [&] {
    HttpClient client(server.server().port());
    Arrivals arrivals{Clock::now(), {}};
    client.send(paced_request("/sse?events=5&interval=20"));
    expect_paced_head(client, "text/event-stream");
    EXPECT_EQ(client.read_bytes(as_chunks({pieces[0], pieces[1]}).size()),
              as_chunks({pieces[0], pieces[1]}));
    arrivals.pieces.push_back(Clock::now());
    for (std::size_t i = 2; i < pieces.size(); ++i) {
      EXPECT_EQ(client.read_bytes(as_chunks({pieces[i]}).size()), as_chunks({pieces[i]}));
      arrivals.pieces.push_back(Clock::now());
    }
    return arrivals;
  });
  expect_on_schedule(interval, [&] {
    auto arrivals = h2c_arrivals(server, "/sse?events=5&interval=20", pieces, "text/event-stream");
    if (arrivals.pieces.size() != pieces.size()) return Arrivals{};
    arrivals.pieces.erase(arrivals.pieces.begin());  // the opening, which goes with event 1
    return arrivals;
  });
}

TEST(TargetPacedServer, TrickleSendsItsChunksOnTime) {
  ServerThread server(loopback_options());
  HttpClient client(server.server().port());
  client.send(paced_request("/trickle?chunks=3&interval=10&size=5"));
  expect_paced_head(client, "application/octet-stream");
  const auto wire = as_chunks({"xxxxx", "xxxxx", "xxxxx"}) + "0\r\n\r\n";
  EXPECT_EQ(client.read_bytes(wire.size()), wire);
  EXPECT_EQ(client.get("/").body(), "hello stampede\n");

  expect_on_schedule(10ms, [&] {
    return h2c_arrivals(server, "/trickle?chunks=4&interval=10",
                        std::vector<std::string>(4, std::string(16, 'x')),
                        "application/octet-stream");
  });
}

TEST(TargetPacedServer, CutEndsTheConnectionOrStreamWithoutTheEnd) {
  ServerThread server(loopback_options());
  HttpClient client(server.server().port());
  client.send(paced_request("/sse?events=2&interval=10&fault=cut"));
  expect_paced_head(client, "text/event-stream");
  const auto wire = as_chunks(sse_pieces(1, 2));
  EXPECT_EQ(client.read_bytes(wire.size()), wire);
  EXPECT_TRUE(client.closed_by_server());  // no last chunk before the close

  H2cLink link(server);
  const auto cut = link.client.submit("GET", "/sse?events=2&interval=10&fault=cut");
  ASSERT_TRUE(link.exchange());
  EXPECT_EQ(link.client.result(cut).body, joined(sse_pieces(1, 2)));
  EXPECT_EQ(link.client.result(cut).error_code, static_cast<std::uint32_t>(NGHTTP2_INTERNAL_ERROR));
  const auto next = link.client.submit("GET", "/json");  // only the stream was cut
  ASSERT_TRUE(link.exchange());
  EXPECT_EQ(link.client.result(next).headers.at(":status"), "200");
}

/// A server whose idle timeout is short: a stalled stream is closed for it.
ServeOptions impatient_options() {
  auto options = loopback_options();
  options.idle_timeout = 150ms;
  return options;
}

TEST(TargetPacedServer, Http1IdleTimeoutClosesAStallButNotAStreamBetweenEvents) {
  ServerThread server(impatient_options());
  HttpClient client(server.server().port());
  client.send(paced_request("/sse?events=2&interval=250"));  // waits longer than the timeout
  expect_paced_head(client, "text/event-stream");
  const auto wire = as_chunks(sse_pieces(1, 2)) + "0\r\n\r\n";
  EXPECT_EQ(client.read_bytes(wire.size()), wire);
  client.send(paced_request("/sse?events=1&fault=stall"));
  expect_paced_head(client, "text/event-stream");
  auto pieces = sse_pieces(1, 1);
  pieces.emplace_back("data: half");
  EXPECT_EQ(client.read_bytes(as_chunks(pieces).size()), as_chunks(pieces));
  const auto stalled = Clock::now();
  EXPECT_TRUE(client.closed_by_server());  // nothing more, no last chunk: idle
  EXPECT_GE(Clock::now() - stalled, 100ms);
}

TEST(TargetPacedServer, H2cIdleTimeoutClosesAStallButNotAStreamBetweenEvents) {
  ServerThread server(impatient_options());
  H2cLink link(server);
  const auto waiting = link.client.submit("GET", "/sse?events=2&interval=250");
  ASSERT_TRUE(link.exchange());
  EXPECT_EQ(link.client.result(waiting).body, joined(sse_pieces(1, 2)));
  const auto stall = link.client.submit("GET", "/sse?events=1&fault=stall");
  const auto& got = link.client.result(stall);
  ASSERT_TRUE(exchange_until(link.context, link.socket, link.client,
                             [&] { return got.body.ends_with("data: half"); }));
  EXPECT_EQ(got.body, joined(sse_pieces(1, 1)) + "data: half");
  const auto stalled = Clock::now();
  std::array<char, 256> buffer{};
  boost::system::error_code ec;
  bool done = false;
  link.socket.async_read_some(net::buffer(buffer),
                              [&](boost::system::error_code error, std::size_t) {
                                ec = error;
                                done = true;
                              });
  ASSERT_TRUE(run_until(link.context, [&] { return done; }));
  EXPECT_EQ(ec, net::error::eof);  // the stream never ended: the connection was idle
  EXPECT_GE(Clock::now() - stalled, 100ms);
  EXPECT_FALSE(got.closed);
}

TEST(TargetPacedServer, AClientLeavingMidStreamFreesItAtOnce) {
  auto options = loopback_options();
  options.max_in_flight = 100;  // so that requests in flight are counted
  ServerThread server(options);
  {
    HttpClient client(server.server().port());
    client.send(paced_request("/sse?events=3&interval=60000"));
    expect_paced_head(client, "text/event-stream");
    const auto wire = as_chunks(sse_pieces(1, 1));
    EXPECT_EQ(client.read_bytes(wire.size()), wire);
    EXPECT_EQ(server.server().requests_in_flight(), 1U);
  }  // gone, a minute before its next event
  const auto left = Clock::now();
  EXPECT_TRUE(none_in_flight(server.server()));
  EXPECT_LT(Clock::now() - left, 1s);
  {
    H2cLink link(server);
    const auto id = link.client.submit("GET", "/sse?events=3&interval=60000");
    const auto& got = link.client.result(id);
    ASSERT_TRUE(exchange_until(link.context, link.socket, link.client,
                               [&] { return got.body == joined(sse_pieces(1, 1)); }));
    EXPECT_EQ(server.server().requests_in_flight(), 1U);
  }
  const auto h2_left = Clock::now();
  EXPECT_TRUE(none_in_flight(server.server()));
  EXPECT_LT(Clock::now() - h2_left, 1s);
}

}  // namespace
}  // namespace stampede::target_server
