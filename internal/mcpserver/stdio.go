// This file is the stdio transport: newline-delimited JSON-RPC on stdin and
// stdout. It reads each line itself instead of handing the stream to the
// SDK's transport, whose connection ends on the first line it cannot decode:
// a line that is not JSON is answered with a parse error (-32700), JSON that
// is not one JSON-RPC message with an invalid request error (-32600), both
// with id null, and the next line is read. When stdin closes, the requests
// already read are answered before the connection ends.

package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one inbound message; a longer line is answered with an
// invalid request error and skipped.
const maxLineBytes = 16 << 20

// drainTimeout bounds the wait for answers still being computed when stdin
// closes.
const drainTimeout = 2 * time.Minute

// lineTransport serves one connection on r and w.
type lineTransport struct {
	r   io.Reader
	w   io.Writer
	log *slog.Logger
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.w, log: t.log, in: make(chan jsonrpc.Message), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]int{}, maxLine: maxLineBytes}
	go c.readLoop(t.r)
	return c, nil
}

// lineConn is an mcp.Connection over newline-delimited JSON.
type lineConn struct {
	wmu     sync.Mutex // one message per write, whole
	w       io.Writer
	log     *slog.Logger
	maxLine int

	in     chan jsonrpc.Message // valid messages; closed at the end of input
	inErr  error                // why input ended (io.EOF normally), set before in is closed
	closed chan struct{}
	once   sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]int // requests read and not yet answered
	idle    chan struct{}      // closed when pending becomes empty; nil while nobody waits
}

func (c *lineConn) SessionID() string { return "" }

// readLoop reads lines until the input ends, passing valid messages on and
// answering the others.
func (c *lineConn) readLoop(r io.Reader) {
	defer close(c.in)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, c.maxLine)
		if errors.Is(err, errLineTooLong) {
			c.reject(jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", c.maxLine))
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			msg, code, why := decodeLine(line)
			if msg == nil {
				c.reject(code, why)
			} else {
				if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
					c.mu.Lock()
					c.pending[req.ID]++
					c.mu.Unlock()
				}
				select {
				case c.in <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.inErr = err
			return
		}
	}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its newline. A line longer than max
// is read to its end and dropped, with errLineTooLong. At the end of input the
// last line comes with io.EOF.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		frag, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > max+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			if err == nil {
				err = errLineTooLong
			}
			return nil, err
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// decodeLine decodes one line into a message, or says which JSON-RPC error
// answers it.
func decodeLine(line []byte) (jsonrpc.Message, int64, string) {
	line = bytes.TrimSpace(line)
	if !utf8.Valid(line) {
		return nil, jsonrpc.CodeParseError, "parse error: the message is not valid UTF-8"
	}
	if !json.Valid(line) {
		return nil, jsonrpc.CodeParseError, "parse error: the message is not one JSON value"
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one message per line"
	default:
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object"
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return msg, 0, ""
}

// reject answers a message that was not passed on. JSON-RPC answers an
// unreadable request with id null.
func (c *lineConn) reject(code int64, message string) {
	c.log.Warn("mcp: refused an inbound message", "code", code, "reason", message)
	b, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: nil, Error: struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		return
	}
	c.write(b)
}

func (c *lineConn) write(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// Read returns the next valid message. When the input has ended it waits for
// the answers to the requests already read (at most drainTimeout), then
// reports the end.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case msg, ok := <-c.in:
		if ok {
			return msg, nil
		}
	}
	c.drain(ctx)
	if c.inErr != nil && !errors.Is(c.inErr, io.EOF) {
		return nil, c.inErr
	}
	return nil, io.EOF
}

// drain waits until every request read has been answered.
func (c *lineConn) drain(ctx context.Context) {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	c.idle = make(chan struct{})
	idle := c.idle
	c.mu.Unlock()
	t := time.NewTimer(drainTimeout)
	defer t.Stop()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-c.closed:
	case <-t.C:
		c.log.Warn("mcp: stdin closed and answers still pending after the drain timeout", "timeout", drainTimeout.String())
	}
}

// Write writes one message on its own line; an answer retires its request.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	err = c.write(b)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if n := c.pending[resp.ID]; n > 1 {
			c.pending[resp.ID] = n - 1
		} else {
			delete(c.pending, resp.ID)
		}
		if len(c.pending) == 0 && c.idle != nil {
			close(c.idle)
			c.idle = nil
		}
		c.mu.Unlock()
	}
	return err
}

// Close ends the connection; a read of stdin in progress is abandoned.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}
