// PacedBody: /sse's events and /trickle's chunks as pieces, each made when it is due.
#include "target_server/paced_body.hpp"

#include "target_server/span_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace stampede::target_server {
namespace {

/// What fault=long sends after "data: ": this many 'x', with no line end.
constexpr std::uint64_t long_line_size = std::uint64_t{10} * 1024 * 1024;

std::string_view line_end(LineEnd eol) {
  switch (eol) {
    case LineEnd::crlf:
      return "\r\n";
    case LineEnd::cr:
      return "\r";
    case LineEnd::lf:
      break;
  }
  return "\n";
}

std::uint64_t digit_count(std::uint64_t number) {
  std::uint64_t count = 1;
  for (; number >= 10; number /= 10) ++count;
  return count;
}

}  // namespace

std::size_t Piece::copy(std::uint64_t offset, std::span<char> out) const {
  std::size_t copied = 0;
  // Copies what is wanted of the part at [begin, begin + size): `text`, or 'x' if null.
  const auto copy_part = [&](std::uint64_t begin, std::uint64_t size, const char* text) {
    const auto at = offset + copied;
    if (at < begin || at >= begin + size) return;
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(begin + size - at, out.size() - copied));
    if (text != nullptr) {
      std::memcpy(out.data() + copied, text + (at - begin), n);
    } else {
      std::memset(out.data() + copied, 'x', n);
    }
    copied += n;
  };
  copy_part(0, head_size_, text_.data());
  copy_part(head_size_, run_, nullptr);
  copy_part(head_size_ + run_, tail_size_, text_.data() + head_size_);
  return copied;
}

PacedBody::PacedBody(const Route& route)
    : paced_(route.paced),
      sse_(route.page == Page::sse),
      events_(paced_.count > paced_.last_event_id ? paced_.count - paced_.last_event_id : 0) {
  if (paced_.per_stream > 0) events_ = std::min(events_, paced_.per_stream);
}

std::uint64_t PacedBody::pieces() const {
  if (!sse_) return events_;
  return 1 + events_ + (fault_piece() ? 1 : 0);
}

std::uint64_t PacedBody::step(std::uint64_t index) const {
  if (paced_.interval.count() == 0 || index == 0) return 0;
  if (!sse_) return index;
  // The opening goes with the first event, the fault's piece with the last.
  return std::min(index, std::max<std::uint64_t>(events_, 1)) - 1;
}

Piece PacedBody::piece(std::uint64_t index) const {
  if (!sse_) {
    Piece chunk;
    chunk.run_ = paced_.size;
    return chunk;
  }
  if (index == 0) return opening();
  if (index <= events_) return event(paced_.last_event_id + index);
  return fault();
}

Ending PacedBody::ending() const {
  switch (paced_.fault) {
    case Fault::stall:
    case Fault::long_line:
      return Ending::stall;
    case Fault::cut:
      return Ending::cut;
    case Fault::none:
    case Fault::bad_utf8:
      break;
  }
  return Ending::end;
}

bool PacedBody::fault_piece() const {
  return paced_.fault == Fault::stall || paced_.fault == Fault::long_line ||
         paced_.fault == Fault::bad_utf8;
}

Piece PacedBody::opening() const {
  const auto eol = line_end(paced_.eol);
  Piece piece;
  SpanWriter text(piece.text_);
  text << ": stampede" << eol;
  if (paced_.retry) text << "retry: " << *paced_.retry << eol;
  text << eol;  // a block with no event: the client sees the stream open
  piece.head_size_ = static_cast<std::uint8_t>(text.size());
  return piece;
}

Piece PacedBody::event(std::uint64_t id) const {
  const auto eol = line_end(paced_.eol);
  Piece piece;
  SpanWriter text(piece.text_);
  text << "id: " << id << eol << R"(data: {"seq":)" << id;
  // Padded, the data is {"seq":I,"pad":""} (17 bytes and I's digits) and the pad; a size below
  // that leaves it unpadded.
  const std::uint64_t least = 17 + digit_count(id);
  const bool padded = paced_.size >= least;
  if (padded) text << R"(,"pad":")";
  piece.head_size_ = static_cast<std::uint8_t>(text.size());
  piece.run_ = padded ? paced_.size - least : 0;
  text << (padded ? R"("})" : "}") << eol << eol;
  piece.tail_size_ = static_cast<std::uint8_t>(text.size() - piece.head_size_);
  return piece;
}

Piece PacedBody::fault() const {
  const auto eol = line_end(paced_.eol);
  Piece piece;
  SpanWriter text(piece.text_);
  if (paced_.fault == Fault::bad_utf8) {
    text << "id: " << std::uint64_t{paced_.count} + 1 << eol << "data: \xFF\xFE" << eol << eol;
  } else {
    text << (paced_.fault == Fault::stall ? "data: half" : "data: ");
    if (paced_.fault == Fault::long_line) piece.run_ = long_line_size;
  }
  piece.head_size_ = static_cast<std::uint8_t>(text.size());
  return piece;
}

}  // namespace stampede::target_server
