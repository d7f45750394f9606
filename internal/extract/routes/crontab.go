// Package routes reads entry points held outside PHP code: crontab files.
// The PHP rules (routes, hooks, commands, schedules) live in lang/php
// routes.go, next to the tree they read.
package routes

import (
	"regexp"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// Job is one crontab line.
type Job struct {
	Line     int
	Schedule string // the five time fields, or an @keyword
	Command  string // the shell command
	// CLI is the application command the line runs ("schedule:run" for
	// `php artisan schedule:run`), or "".
	CLI string
}

var cliCommand = regexp.MustCompile(`(?:artisan|console(?:\.php)?|bin/console|wp)\s+([a-z][\w:.-]*)`)

// IsCrontab reports whether a project path names a crontab file.
func IsCrontab(path string) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	return base == "crontab" || strings.HasSuffix(base, ".crontab") || strings.HasSuffix(base, ".cron") ||
		strings.Contains(path, "cron.d/")
}

// Parse reads the jobs of a crontab file; comments, blank lines and
// variable assignments are skipped.
func Parse(src []byte) []Job {
	var jobs []Job
	for i, ln := range strings.Split(string(src), "\n") {
		s := strings.TrimSpace(ln)
		if s == "" || s[0] == '#' {
			continue
		}
		f := strings.Fields(s)
		var sched string
		var rest []string
		switch {
		case strings.HasPrefix(f[0], "@") && len(f) >= 2:
			sched, rest = f[0], f[1:]
		case len(f) >= 6 && isTimeField(f[0]) && isTimeField(f[1]):
			sched, rest = strings.Join(f[:5], " "), f[5:]
		default:
			continue // NAME=value and anything else
		}
		cmd := strings.Join(rest, " ")
		j := Job{Line: i + 1, Schedule: sched, Command: cmd}
		if m := cliCommand.FindStringSubmatch(cmd); m != nil {
			j.CLI = m[1]
		}
		jobs = append(jobs, j)
	}
	return jobs
}

func isTimeField(s string) bool {
	return strings.Trim(s, "0123456789*/,-") == "" || strings.Contains("jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun", strings.ToLower(s))
}

// Facts returns a cron_job node per job below the file node of path, and
// for jobs that run an application command a reference "command:<name>"
// from the job (resolved to the command and its handler).
func Facts(path string, jobs []Job) ([]fact.Node, []fact.Ref) {
	var nodes []fact.Node
	var refs []fact.Ref
	seen := map[string]int{}
	for _, j := range jobs {
		q := j.Command
		if j.CLI != "" {
			q = j.CLI
		}
		d := seen[q]
		seen[q]++
		id := fact.NodeID(fact.CronJob, q, path, d)
		props := map[string]string{"schedule": j.Schedule, "command": j.Command, "framework": "crontab"}
		nodes = append(nodes, fact.Node{ID: id, Kind: fact.CronJob, Name: q, QName: q, Path: path,
			StartLine: j.Line, EndLine: j.Line, Lang: "crontab", Props: props})
		if j.CLI != "" {
			refs = append(refs, fact.Ref{Kind: "handles", From: id, Path: path, Line: j.Line, Name: "command:" + j.CLI,
				Props: map[string]string{"raw": j.Command}})
		}
	}
	return nodes, refs
}
