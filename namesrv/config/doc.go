// Package config holds the NameServer's settings under their Java keys
// (NamesrvConfig and NettyServerConfig, protocol.md section 6): defaults,
// the mqnamesrv command line with a Java properties file, and the shared
// Settings that UPDATE_NAMESRV_CONFIG changes and GET_NAMESRV_CONFIG lists.
//
// Differences from Java, on purpose:
//   - rocketmqHome defaults to the user's home directory when ROCKETMQ_HOME is
//     unset; the server does not refuse to start (it reads nothing from there).
//   - Properties text is read as UTF-8 (Java's Properties.load reads bytes as
//     ISO-8859-1, which garbles non-ASCII values sent by Java tools).
//   - Numbers and booleans are trimmed before conversion, like strings.
//   - The settings file is written atomically (temp file, fsync, rename, fsync
//     of the directory) and no `.bak` copy is kept; a failed write fails the
//     update and changes nothing (Java applies the change and logs the error).
//   - An update that leaves a setting Validate rejects (e.g. logFormat=xml) is
//     refused as a whole.
//   - -data, -port, -log-format, -log-level and `-key value` for any key are
//     command-line additions; -p prints plain key=value lines.
package config
