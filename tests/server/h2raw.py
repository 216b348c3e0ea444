"""A minimal HTTP/2 client on a raw socket, for the attack tests (attack_test.py): it sends exactly the frames
a hostile gRPC client would (headers without a message, a message that never completes, a stream whose
answers are never read) and none of the politeness a real client library adds. Plaintext, loopback only.

Frames and settings: RFC 9113 (HTTP/2); header block: RFC 7541 (HPACK) literal fields without indexing
(section 6.2.2), which a decoder accepts without any table state; gRPC framing of a message: a 5-byte
prefix (compressed flag, 4-byte big-endian length), per grpc/doc/PROTOCOL-HTTP2.md.
"""
import select
import socket
import struct
import time

DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
SETTINGS_INITIAL_WINDOW_SIZE = 4
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DEFAULT_WINDOW = 65535


def hpack_int(value, prefix_bits, first=0):
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first | value])
    out = [first | limit]
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def hpack_literal(name, value):
    """Literal header field without indexing, new name (RFC 7541 6.2.2), no Huffman coding."""
    name, value = name.encode(), value.encode()
    return b"\x00" + hpack_int(len(name), 7) + name + hpack_int(len(value), 7) + value


def grpc_frame(message, declared=None):
    """A gRPC length-prefixed message; `declared` overrides the length (a message that never completes)."""
    return b"\x00" + struct.pack(">I", len(message) if declared is None else declared) + message


class Stream:
    def __init__(self, sid):
        self.sid = sid
        self.send_window = DEFAULT_WINDOW
        self.to_send = b""          # DATA payload still to send (as the windows allow)
        self.end_after = False      # END_STREAM once to_send is out
        self.received = 0           # DATA bytes received
        self.closed = False         # trailers with END_STREAM, or RST_STREAM
        self.reset = False
        self.headers = b""          # raw header blocks received (not decoded)


class H2Conn:
    """One HTTP/2 connection. `read_answers`: grant the server window for what it sent (a client that reads);
    False: never send WINDOW_UPDATE, so the server can send at most one initial window per stream."""

    def __init__(self, address, read_answers=True, initial_window=DEFAULT_WINDOW):
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.sock.setblocking(False)
        self.read_answers = read_answers
        self.authority = address
        self.streams = {}
        self.next_sid = 1
        self.conn_send_window = DEFAULT_WINDOW
        self.peer_initial_window = DEFAULT_WINDOW
        self.inbuf = b""
        self.outbuf = b""
        self.goaway = False
        self.eof = False
        settings = struct.pack(">HI", SETTINGS_INITIAL_WINDOW_SIZE, initial_window)
        self._queue(PREFACE + self._frame(SETTINGS, 0, 0, settings))

    @staticmethod
    def _frame(ftype, flags, sid, payload):
        return struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) + struct.pack(">I", sid) + payload

    def _queue(self, data):
        self.outbuf += data
        self._flush()

    def _flush(self):
        while self.outbuf:
            try:
                n = self.sock.send(self.outbuf)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.eof = True
                self.outbuf = b""
                return
            self.outbuf = self.outbuf[n:]

    def open(self, path, token=None, body=b"", end=False):
        """A new stream: HEADERS now, then `body` as DATA as the windows allow (END_STREAM after it if `end`)."""
        sid = self.next_sid
        self.next_sid += 2
        s = Stream(sid)
        s.send_window = self.peer_initial_window
        self.streams[sid] = s
        block = b"".join(hpack_literal(k, v) for k, v in [
            (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", self.authority),
            ("content-type", "application/grpc"), ("te", "trailers")] + ([("authorization", "Bearer " + token)] if token else []))
        flags = END_HEADERS | (END_STREAM if end and not body else 0)
        self._queue(self._frame(HEADERS, flags, sid, block))
        s.to_send = body
        s.end_after = end and bool(body)
        self._send_data()
        return s

    def _send_data(self):
        for s in self.streams.values():
            while s.to_send and not s.closed and len(self.outbuf) < (1 << 20):
                n = min(len(s.to_send), 16384, s.send_window, self.conn_send_window)
                if n <= 0:
                    break
                chunk, s.to_send = s.to_send[:n], s.to_send[n:]
                s.send_window -= n
                self.conn_send_window -= n
                flags = END_STREAM if (s.end_after and not s.to_send) else 0
                self._queue(self._frame(DATA, flags, s.sid, chunk))

    def pump(self, seconds):
        """Reads and answers frames for `seconds` (or until the connection ends)."""
        end = time.time() + seconds
        while not self.eof:
            left = end - time.time()
            if left <= 0:
                break
            want_write = [self.sock] if self.outbuf else []
            r, w, _ = select.select([self.sock], want_write, [], min(left, 0.05))
            if w:
                self._flush()
            if r:
                try:
                    data = self.sock.recv(1 << 20)
                except (BlockingIOError, InterruptedError):
                    data = None
                except OSError:
                    data = b""
                if data == b"":
                    self.eof = True
                    break
                if data:
                    self.inbuf += data
                    self._frames()
            self._send_data()

    def _frames(self):
        while len(self.inbuf) >= 9:
            length = int.from_bytes(self.inbuf[0:3], "big")
            if len(self.inbuf) < 9 + length:
                return
            ftype, flags = self.inbuf[3], self.inbuf[4]
            sid = struct.unpack(">I", self.inbuf[5:9])[0] & 0x7FFFFFFF
            payload = self.inbuf[9:9 + length]
            self.inbuf = self.inbuf[9 + length:]
            s = self.streams.get(sid)
            if ftype == SETTINGS and not flags & ACK:
                for k in range(0, len(payload), 6):
                    ident, value = struct.unpack(">HI", payload[k:k + 6])
                    if ident == SETTINGS_INITIAL_WINDOW_SIZE:
                        delta = value - self.peer_initial_window
                        self.peer_initial_window = value
                        for st in self.streams.values():
                            st.send_window += delta
                self._queue(self._frame(SETTINGS, ACK, 0, b""))
            elif ftype == PING and not flags & ACK:
                self._queue(self._frame(PING, ACK, 0, payload))
            elif ftype == WINDOW_UPDATE:
                inc = struct.unpack(">I", payload)[0] & 0x7FFFFFFF
                if sid == 0:
                    self.conn_send_window += inc
                elif s:
                    s.send_window += inc
            elif ftype == GOAWAY:
                self.goaway = True
            elif ftype == RST_STREAM and s:
                s.closed = s.reset = True
            elif ftype == HEADERS and s:
                s.headers += payload
                if flags & END_STREAM:
                    s.closed = True
            elif ftype == DATA and s:
                s.received += length
                if self.read_answers and length:
                    self._queue(self._frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", length)) +
                                self._frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", length)))
                if flags & END_STREAM:
                    s.closed = True

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
