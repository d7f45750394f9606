// Package stand is the measurement stand behind `ragraf stand`: metrics
// M1–M7 of the specification, measured on a scratch copy of a project against
// a scripted grep-and-read agent (the baseline), with independent truth, on
// the project's real history when it has one.
//
// # Flow
//
// Run copies the project (a git working tree is fetched into a new
// repository and checked out History commits before its HEAD; any other
// directory is copied), indexes the copy (M7 full), gathers truth with PHP's
// tokenizer and universal-ctags (truth.go, facts.php), generates tasks with
// the seed (tasks.go), asks each of ragraf (ragraf.go) and of the baseline
// (baseline.go), judges both (judge.go: M1, M3), slices sampled functions
// (slice.go: M4), checks every cited fact against the files (M6), then
// replays the commits (history.go: M2 before each checkout, M5 after it,
// M7 incremental with each `reindex --commit`). metrics.go computes the
// numbers, report.go renders stand.md.
//
// # Vocabulary
//
// A Task is a question with its truth: Places (path and line or lines) and
// the source they came from. A Judgement compares the places an answer
// cites with the truth. A SideRun is what one side did for one task: its
// first answer's judgement, and the calls and cl100k tokens until it had
// seen the whole truth or spent its budget.
package stand
