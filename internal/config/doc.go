// Package config loads, validates and fingerprints project.yaml, the one file that
// says what ragraf indexes and how.
//
// # Types
//
// Config is the whole file; DatabaseConfig, DataFlowConfig and EmbeddingsConfig are
// its sections. Default returns the values every missing key takes, and Template
// renders them as the commented project.yaml that `ragraf init` writes.
//
// # Errors
//
// Parse refuses unknown keys, wrong types, invalid globs, out-of-range numbers,
// unknown languages and unknown database drivers. Each problem is an *Error that
// carries the file, line and column and says what to write instead; all problems
// found in one file are joined with errors.Join.
//
// # Mandatory excludes
//
// MandatoryExcludes lists paths no configuration can re-include (VCS metadata,
// ragraf's own directory, dependencies, logs, backups and coding-assistant
// artifacts); IsMandatoryExcluded applies them to a relative path at any depth.
package config
