package topicconfig

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// topicAttribute is one attribute a topic may carry (Java TopicAttributes).
type topicAttribute struct {
	changeable bool     // may be added, changed or removed after creation
	values     []string // allowed values; nil for a number range
	minValue   int64    // number range, when values is nil
}

// knownTopicAttributes are the attributes a Java 5.x broker accepts. Java also
// knows reserve.time, but refuses it without tiered storage, which a route-only
// broker never has; it is therefore left out and refused as unsupported.
var knownTopicAttributes = map[string]topicAttribute{
	"queue.type":     {values: []string{"BatchCQ", "SimpleCQ"}},
	"cleanup.policy": {values: []string{"DELETE", "COMPACTION"}},
	"message.type":   {changeable: true, values: []string{"UNSPECIFIED", "NORMAL", "FIFO", "DELAY", "TRANSACTION", "MIXED"}},
}

// ParseAttributeModification reads the attribute text mqadmin sends
// (`+key=value,+key2=value2,-key3`, Java AttributeParser.parseToMap) into
// prefixed key -> value ("" for removals).
func ParseAttributeModification(text string) (map[string]string, error) {
	mods := map[string]string{}
	if text == "" {
		return mods, nil
	}
	for _, kv := range strings.Split(text, ",") {
		key, value, hasValue := strings.Cut(kv, "=")
		if hasValue && !strings.Contains(key, "+") {
			return nil, fmt.Errorf("add/alter attribute format is wrong: %s", key)
		}
		if !hasValue && !strings.Contains(key, "-") {
			return nil, fmt.Errorf("delete attribute format is wrong: %s", key)
		}
		if hasValue {
			value, _, _ = strings.Cut(value, "=")
		}
		if _, dup := mods[key]; dup {
			return nil, fmt.Errorf("key duplication: %s", key)
		}
		mods[key] = value
	}
	return mods, nil
}

// AlterAttributes applies a prefixed modification to a topic's current
// attributes with the rules of Java's AttributeUtil: on creation only `+`
// keys; afterwards `+` adds or updates and `-` removes an existing key; keys
// must be known and values allowed. The result has unprefixed keys.
func AlterAttributes(create bool, current, mods map[string]string) (map[string]string, error) {
	final := maps.Clone(current)
	if final == nil {
		final = map[string]string{}
	}
	seen := map[string]bool{}
	for _, prefixed := range slices.Sorted(maps.Keys(mods)) {
		if prefixed == "" {
			return nil, fmt.Errorf("kv string format wrong.")
		}
		op, key := prefixed[0], prefixed[1:]
		if key == "" || strings.ContainsAny(key, "+-") {
			return nil, fmt.Errorf("kv string format wrong.")
		}
		if seen[key] {
			return nil, fmt.Errorf("alter duplication key. key: %s", key)
		}
		seen[key] = true
		attr, known := knownTopicAttributes[key]
		switch {
		case create && op != '+':
			return nil, fmt.Errorf("only add attribute is supported while creating topic. key: %s", key)
		case op != '+' && op != '-':
			return nil, fmt.Errorf("wrong format key: %s", key)
		case op == '-' && !create:
			if _, ok := current[key]; !ok {
				return nil, fmt.Errorf("attempt to delete a nonexistent key: %s", key)
			}
		}
		if !known {
			return nil, fmt.Errorf("unsupported key: %s", key)
		}
		if !create && !attr.changeable {
			return nil, fmt.Errorf("attempt to update an unchangeable attribute. key: %s", key)
		}
		if op == '-' {
			delete(final, key)
			continue
		}
		if err := attr.verify(mods[prefixed]); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		final[key] = mods[prefixed]
	}
	return final, nil
}

func (a topicAttribute) verify(value string) error {
	if a.values != nil {
		if !slices.Contains(a.values, value) {
			return fmt.Errorf("value is not in set: %v", a.values)
		}
		return nil
	}
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n < a.minValue {
		return fmt.Errorf("value is not in range")
	}
	return nil
}
