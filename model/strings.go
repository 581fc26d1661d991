package model

// Strings interns strings so that event columns can hold int32 ids.
// Id 0 is always the empty string.
type Strings struct {
	list  []string
	index map[string]int32
}

// Intern returns the id of s, adding it if needed.
func (s *Strings) Intern(v string) int32 {
	if s.index == nil {
		s.index = map[string]int32{"": 0}
		if len(s.list) == 0 {
			s.list = []string{""}
		} else {
			for i, x := range s.list {
				s.index[x] = int32(i)
			}
		}
	}
	if id, ok := s.index[v]; ok {
		return id
	}
	id := int32(len(s.list))
	s.list = append(s.list, v)
	s.index[v] = id
	return id
}

// Get returns the string with the given id; out-of-range ids give "".
func (s *Strings) Get(id int32) string {
	if id < 0 || int(id) >= len(s.list) {
		return ""
	}
	return s.list[id]
}

// Len is the number of distinct strings, the empty string included.
func (s *Strings) Len() int {
	if len(s.list) == 0 {
		return 1
	}
	return len(s.list)
}

// All returns the table; index = id. Do not modify it.
func (s *Strings) All() []string {
	if len(s.list) == 0 {
		return []string{""}
	}
	return s.list
}

// Lookup returns the id of v and whether it is in the table, without
// adding it.
func (s *Strings) Lookup(v string) (int32, bool) {
	if s.index != nil {
		id, ok := s.index[v]
		return id, ok
	}
	for i, x := range s.All() {
		if x == v {
			return int32(i), true
		}
	}
	return 0, false
}
