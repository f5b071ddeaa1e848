// Package mqversion names the version ordinals RocketMQ peers announce in
// every remoting header (Java's MQVersion.Version enum): 479 is V5_3_3. The
// dashboard shows the names an operator knows from mqadmin and the Java
// logs instead of the bare number.
package mqversion

import "strconv"

// The enum starts with sixteen 3.0.0 pre-releases and then, for each
// release from 3.0.1 to 5.9.9, a SNAPSHOT entry followed by the release; it
// ends with HIGHER_VERSION, which Java answers for any ordinal past the end.
var preReleases = []string{
	"V3_0_0_SNAPSHOT", "V3_0_0_ALPHA1", "V3_0_0_BETA1", "V3_0_0_BETA2", "V3_0_0_BETA3", "V3_0_0_BETA4",
	"V3_0_0_BETA5", "V3_0_0_BETA6_SNAPSHOT", "V3_0_0_BETA6", "V3_0_0_BETA7_SNAPSHOT", "V3_0_0_BETA7",
	"V3_0_0_BETA8_SNAPSHOT", "V3_0_0_BETA8", "V3_0_0_BETA9_SNAPSHOT", "V3_0_0_BETA9", "V3_0_0_FINAL",
}

// Higher is the name of every ordinal past the last release.
const Higher = "HIGHER_VERSION"

// minorLine is one minor release line of the enum: its patch releases from
// first to last.
type minorLine struct{ major, minor, first, last int }

// lines are the release lines in enum order: 3.0 runs 1..15, 3.1 and 3.2
// 0..9, 3.3 to 3.9 1..9, every 4.x and 5.x line 0..9.
var lines = func() []minorLine {
	out := []minorLine{{3, 0, 1, 15}, {3, 1, 0, 9}, {3, 2, 0, 9}}
	for minor := 3; minor <= 9; minor++ {
		out = append(out, minorLine{3, minor, 1, 9})
	}
	for major := 4; major <= 5; major++ {
		for minor := 0; minor <= 9; minor++ {
			out = append(out, minorLine{major, minor, 0, 9})
		}
	}
	return out
}()

// names is the whole enum, by ordinal.
var names = func() []string {
	out := append([]string(nil), preReleases...)
	for _, l := range lines {
		for patch := l.first; patch <= l.last; patch++ {
			release := "V" + strconv.Itoa(l.major) + "_" + strconv.Itoa(l.minor) + "_" + strconv.Itoa(patch)
			out = append(out, release+"_SNAPSHOT", release)
		}
	}
	return append(out, Higher)
}()

// Name is the enum name of a version ordinal, as mqadmin and the Java logs
// show it: Name(479) is "V5_3_3"; an ordinal past the end is Higher (as
// Java's MQVersion.getVersionDesc answers); a negative one, which no Java
// peer sends, is its number.
func Name(ordinal int32) string {
	switch {
	case ordinal < 0:
		return strconv.Itoa(int(ordinal))
	case int(ordinal) >= len(names):
		return Higher
	}
	return names[ordinal]
}

// Count is how many ordinals the enum has, HIGHER_VERSION included.
func Count() int { return len(names) }
