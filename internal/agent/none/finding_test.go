package none

import (
	"testing"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The servers' own words: MariaDB 10.11 (bookworm) answers `mysql -u root` from a user
// who is not root with error 1698 (ER_ACCESS_DENIED_NO_PASSWORD_ERROR, unix_socket
// authentication); PostgreSQL 15's libpq reports the server's FATAL
// `role "%s" does not exist` (src/backend/utils/init/miscinit.c) after the socket path.
func TestDatabaseAccountFixes(t *testing.T) {
	fix, edit := failureFix(loop.CommandRecord{Line: 12, Command: "mysql -u root -p < schema.sql", ExitCode: 1},
		"Enter password: \nERROR 1698 (28000): Access denied for user 'root'@'localhost'\n")
	assert.Contains(t, fix, "unix_socket")
	require.NotNil(t, edit)
	assert.Equal(t, "sudo mysql -u root -p < schema.sql", edit.Replace)

	fix, edit = failureFix(loop.CommandRecord{Line: 20, Command: "createdb notes", ExitCode: 1},
		"createdb: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  role \"learner\" does not exist\n")
	assert.Contains(t, fix, "before line 20")
	require.NotNil(t, edit)
	assert.Equal(t, []string{`sudo -u postgres createuser --superuser "$USER"`}, edit.InsertBefore)

	_, edit = failureFix(loop.CommandRecord{Line: 30, Command: "psql -U app notes", ExitCode: 2},
		"psql: error: connection to server on socket \"/var/run/postgresql/.s.PGSQL.5432\" failed: FATAL:  role \"app\" does not exist\n")
	assert.Nil(t, edit, "a role the tutorial names is the tutorial's to create")
}

func TestMakesWhatItsCommandMakes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cmd, p string
		want   bool
	}{
		{"mkdir -p box", "box", true},
		{"mkdir -m 700 box", "700", false},
		{"mmd -i images/lab.img ::/DOCS", "::/DOCS", true},
		{"mmd -i images/lab.img ::/DOCS", "images/lab.img", false},
		{"m4 -F site.m4f lib/site.m4", "site.m4f", true},
		{"m4 -R site.m4f page.m4", "site.m4f", false},
		{"sort -o counts.txt b.txt", "counts.txt", true},
		{"cat notes.txt", "notes.txt", false},
	} {
		assert.Equal(t, tt.want, makes(tt.cmd, tt.p), "%s / %s", tt.cmd, tt.p)
	}
}

// fish refuses a script without its execute bit in words of its own.
func TestFishsNotExecutableGetsChmod(t *testing.T) {
	t.Parallel()
	fix, edit := failureFix(loop.CommandRecord{Command: "./tally.fish notes.txt", Line: 150, ExitCode: 126}, "fish: Unknown command. './tally.fish' exists but is not an executable file.")
	assert.Contains(t, fix, "chmod +x tally.fish")
	require.NotNil(t, edit)
	assert.Equal(t, []string{"chmod +x tally.fish"}, edit.InsertBefore)
}

// A file is named by an error as a whole name or as a path's last part, not as the start
// of a longer name: gcc's "counter.c:3:10" does not name `counter`; coreutils'
// "cat: pki/certs/web.crt: No such file or directory" names `web.crt`.
func TestNamesFile(t *testing.T) {
	for _, c := range []struct {
		output, name string
		want         bool
	}{
		{"counter.c:3:10: fatal error: oath.h: No such file or directory", "counter", false},
		{"cannot open counter.", "counter", true},
		{"cat: pki/certs/web.crt: No such file or directory", "web.crt", true},
		{"cp: cannot create regular file '.git/hooks/pre-commit': No such file or directory", "pre-commit", true},
		{"cat: my-web.crt: No such file or directory", "web.crt", false},
	} {
		assert.Equal(t, c.want, namesFile(c.output, c.name), "%q in %q", c.name, c.output)
	}
}

// What a command could not open is its own output when it is the value of an output
// option or a redirection: HTTPie 3.2's "argument --output/-o: can't open
// 'exports/items.json': [Errno 2] No such file or directory: 'exports/items.json'".
func TestMissesOwnOutput(t *testing.T) {
	httpie := "http: error: argument --output/-o: can't open 'exports/items.json': [Errno 2] No such file or directory: 'exports/items.json'"
	assert.True(t, missesOwnOutput("http --download --output exports/items.json :8081/items", httpie))
	assert.True(t, missesOwnOutput("http --download --output=exports/items.json :8081/items", httpie))
	assert.True(t, missesOwnOutput("jq . a.json > out/a.json", "bash: line 1: out/a.json: No such file or directory"))
	assert.False(t, missesOwnOutput("python3 -m json.tool exports/items.json", "python -m json.tool: error: argument infile: can't open 'exports/items.json': [Errno 2] No such file or directory: 'exports/items.json'"))
}

// Dotted versions compare number by number: POV-Ray 3.7.0.10 is older than the 3.8 a
// scene asks for; 3.10 is newer than 3.8.
func TestVersionBefore(t *testing.T) {
	assert.True(t, versionBefore("3.7.0.10", "3.8"))
	assert.False(t, versionBefore("3.10", "3.8"))
	assert.False(t, versionBefore("3.8", "3.8"))
	m := reNeedsNewer.FindStringSubmatch("File 'hello.pov' line 1: Parse Error: Your scene file requires POV-Ray version\n 3.8 or later! ")
	require.NotNil(t, m)
	assert.Equal(t, "3.8", m[1])
}
