// Package bin holds mqnamesrv and mqshutdown, POSIX sh scripts taking the
// options of Java RocketMQ's scripts of those names; its tests start
// NameServers through one (which passes -pidFile), controllers and brokers
// with -pidFile, and stop each through the other by its pid file, checking
// that no other process is signalled (a stale pid file, a second NameServer
// of the same name, the fallback by name refusing when it is ambiguous).
package bin
