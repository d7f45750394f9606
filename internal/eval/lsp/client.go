// This file is a minimal Language Server Protocol client: JSON-RPC 2.0 over a
// child process's stdio with Content-Length framing. It answers the requests
// servers send back (configuration, progress tokens, registrations) and
// records progress notifications so the caller can wait for indexing.

package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Client talks to one language server process.
type Client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex // guards writes, pending and nextID
	nextID int
	wait   map[int]chan response
	events chan string // notification methods (and progress kinds), for waiting
	done   chan struct{}
	config json.RawMessage // answer to workspace/configuration items
}

type response struct {
	Result json.RawMessage
	Err    *rpcError
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// Start runs command (through sh -c) in dir and connects to its stdio.
// stderr of the server goes to errw.
func Start(ctx context.Context, command, dir string, config json.RawMessage, errw io.Writer) (*Client, error) {
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Stderr = errw
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting language server %q: %w", command, err)
	}
	c := &Client{cmd: cmd, in: in, wait: map[int]chan response{}, events: make(chan string, 1024),
		done: make(chan struct{}), config: config}
	go c.read(bufio.NewReaderSize(out, 1<<20))
	return c, nil
}

// readFrame reads one message body framed by a Content-Length header; a
// header block without the length gives a nil body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		ln, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		ln = strings.TrimSpace(ln)
		if ln == "" {
			break
		}
		if k, v, ok := strings.Cut(ln, ":"); ok && strings.EqualFold(k, "Content-Length") {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, nil
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *Client) read(r *bufio.Reader) {
	defer close(c.done)
	for {
		body, err := readFrame(r)
		if err != nil {
			return
		}
		if body == nil {
			continue
		}
		var m message
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.answer(m)
		case m.Method != "":
			ev := m.Method
			if m.Method == "$/progress" {
				var p struct {
					Value struct {
						Kind string `json:"kind"`
					} `json:"value"`
				}
				_ = json.Unmarshal(m.Params, &p)
				ev += ":" + p.Value.Kind
			}
			select {
			case c.events <- ev:
			default:
			}
		default:
			var id int
			if json.Unmarshal(m.ID, &id) != nil {
				continue
			}
			c.mu.Lock()
			ch := c.wait[id]
			delete(c.wait, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- response{Result: m.Result, Err: m.Error}
			}
		}
	}
}

// answer replies to a request from the server.
func (c *Client) answer(m message) {
	var result any
	switch m.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		items := make([]json.RawMessage, len(p.Items))
		for i := range items {
			items[i] = c.config
			if items[i] == nil {
				items[i] = json.RawMessage("null")
			}
		}
		result = items
	case "workspace/workspaceFolders":
		result = []any{}
	}
	b, _ := json.Marshal(result)
	_ = c.write(message{JSONRPC: "2.0", ID: m.ID, Result: b})
}

func (c *Client) write(m message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = c.in.Write(b)
	return err
}

// ErrServerExited is returned when the server dies before answering.
var ErrServerExited = errors.New("language server exited")

// Call sends a request and decodes its result into out (may be nil).
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan response, 1)
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.wait[id] = ch
	c.mu.Unlock()
	if err := c.write(message{JSONRPC: "2.0", ID: json.RawMessage(strconv.Itoa(id)), Method: method, Params: p}); err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.Err != nil {
			return fmt.Errorf("%s: %s (%d)", method, r.Err.Message, r.Err.Code)
		}
		if out != nil && len(r.Result) > 0 {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-c.done:
		return ErrServerExited
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(message{JSONRPC: "2.0", Method: method, Params: p})
}

// WaitIndexed waits until the server reports that indexing ended: the
// `indexingEnded` notification (intelephense) or the end of a work-done
// progress, whichever comes first; then quiet for settle. It returns when
// the report came, and gives up after timeout with the zero time and no
// error: a server that reports nothing is queried anyway.
func (c *Client) WaitIndexed(ctx context.Context, timeout, settle time.Duration) (time.Time, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case ev := <-c.events:
			if ev == "indexingEnded" || ev == "$/progress:end" {
				at := time.Now()
				time.Sleep(settle)
				return at, nil
			}
		case <-deadline.C:
			return time.Time{}, nil
		case <-c.done:
			return time.Time{}, ErrServerExited
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
	}
}

// Close asks the server to shut down and waits briefly for it to exit.
func (c *Client) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.Call(ctx, "shutdown", nil, nil)
	_ = c.Notify("exit", nil)
	_ = c.in.Close()
	select {
	case <-c.done:
	case <-ctx.Done():
		_ = c.cmd.Process.Kill()
	}
	_ = c.cmd.Wait()
}
