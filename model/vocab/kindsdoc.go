package vocab

import "strings"

// KindsMarkdown is the registry as the Markdown table docs/semantics.md
// holds between its finding-kinds markers (a test keeps them equal).
func KindsMarkdown() string {
	var b strings.Builder
	b.WriteString("| kind | `--fail-on` alias | what | cost per step | severity |\n|---|---|---|---|---|\n")
	for _, k := range FindingKinds {
		b.WriteString("| `" + k.Name + "` | `" + k.Alias + "` | " + k.Help + " | " + k.Cost + " | " + k.Severity + " |\n")
	}
	return b.String()
}

func lower(s string) string { return strings.ToLower(s) }
