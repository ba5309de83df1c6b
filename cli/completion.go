package cli

import (
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// The bash and zsh scripts only hand the words typed so far to zevo, which
// answers with urfave/cli's own completions (commands, then each command's
// flags); fish gets urfave/cli's generated script.
const bashCompletion = `# zevo completion for bash: source it, or put it in your bash-completion directory.
_zevo_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  [[ $cur == -* ]] && words+=("$cur")
  local IFS=$'\n'
  COMPREPLY=($(compgen -W "$("${words[@]}" --generate-bash-completion 2>/dev/null)" -- "$cur"))
}
complete -o bashdefault -o default -F _zevo_complete zevo
`

const zshCompletion = `#compdef zevo
# zevo completion for zsh: put it in a directory of $fpath as _zevo.
_zevo() {
  local -a opts
  local cur=${words[CURRENT]}
  local -a ask=("${(@)words[1,CURRENT-1]}")
  [[ $cur == -* ]] && ask+=("$cur")
  opts=("${(@f)$("${ask[@]}" --generate-bash-completion 2>/dev/null)}")
  if [[ -n ${opts[1]} ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _zevo zevo
`

func completionCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: `Prints the completion script of a shell on standard output.

Examples:
   source <(zevo completion bash)                      # bash, this session
   zevo completion zsh > "${fpath[1]}/_zevo"            # zsh
   zevo completion fish > ~/.config/fish/completions/zevo.fish`,
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageErr("completion needs one shell: bash, zsh or fish (see zevo completion --help)")
			}
			var script string
			switch c.Args().First() {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				// From an app that has not run: once run, urfave/cli's
				// help subcommands make its fish generator recurse.
				s, err := newApp(e).ToFishCompletion()
				if err != nil {
					return err
				}
				script = s + fishJQOptions()
			default:
				return usageErr("completion: unknown shell %q (want bash, zsh or fish)", c.Args().First())
			}
			return writeOut(e, script)
		},
	}
}

// fishJQOptions completes zevo jq's options in fish, from the help's
// option lines as bash and zsh get them: they are not urfave's flags, so
// the generated script has none.
func fishJQOptions() string {
	var b strings.Builder
	b.WriteString("\n# zevo jq's own options\n")
	for _, m := range jqOptionNames().FindAllStringSubmatch(jqUsage, -1) {
		fmt.Fprintf(&b, "complete -c zevo -n '__fish_seen_subcommand_from jq' -l %s\n", strings.TrimPrefix(m[1], "--"))
	}
	return b.String()
}

func manCommand(e *env) *ucli.Command {
	return &ucli.Command{
		Name:  "man",
		Usage: "print zevo's manual page (roff)",
		Description: `Prints the manual page, generated from the commands' own help, in roff.

Examples:
   zevo man | man -l -
   zevo man > /usr/local/share/man/man1/zevo.1`,
		Action: func(c *ucli.Context) error {
			return writeOut(e, manPage(newApp(e)))
		},
	}
}

// writeOut writes s to standard output; a failed write is exit 1.
func writeOut(e *env, s string) error {
	if _, err := fmt.Fprint(e.stdout, s); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
