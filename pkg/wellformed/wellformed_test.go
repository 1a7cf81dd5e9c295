package wellformed

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJSON(t *testing.T) {
	for _, c := range []struct {
		name, raw string
		want      error
		where     string
	}{
		{"plain", `{"a":"b","c":[1,"é 😀",{"d":"\u00e9\ud83d\ude00"}]}`, nil, ""},
		{"escaped quote and backslash", `{"a":"x\"\\u0000"}`, nil, ""},
		{"NUL escape", `{"a":[1,{"b":"x\u0000"}]}`, ErrNUL, "a[1].b"},
		{"NUL byte", "{\"a\":\"x\x00\"}", ErrNUL, "a"},
		{"not UTF-8", "{\"a\":{\"b\":\"\xc3\x28\"}}", ErrNotUTF8, "a.b"},
		{"lone high surrogate", `["\ud800"]`, ErrNotUTF8, "[0]"},
		{"lone low surrogate", `{"k":"\udc00"}`, ErrNotUTF8, "k"},
		{"bad key", `{"a":{"\u0000":1}}`, ErrNUL, "a"},
		{"second element", `{"x":[{"n":"a"},{"n":"b\u0000"}]}`, ErrNUL, "x[1].n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := JSON([]byte(c.raw))
			if c.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, c.want)
			var we *Error
			require.True(t, errors.As(err, &we))
			require.Equal(t, c.where, we.Where)
		})
	}
	require.NoError(t, UTF8JSON([]byte(`{"a":"x\u0000"}`)), "data may hold NUL")
	require.ErrorIs(t, UTF8JSON([]byte("{\"a\":\"\xff\"}")), ErrNotUTF8)
	require.ErrorIs(t, String("a\x00", "q"), ErrNUL)
	require.ErrorIs(t, String("a\xff", "q"), ErrNotUTF8)
	require.NoError(t, String("Grüße", "q"))
}
