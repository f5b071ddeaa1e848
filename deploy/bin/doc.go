// Package bin holds mqnamesrv and mqshutdown, POSIX sh scripts taking the
// options of Java RocketMQ's scripts of those names; its test starts a
// NameServer through one and stops it through the other.
package bin
