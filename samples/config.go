package samples

// Config describes a simulated job. (The generator's owner extends it.)
type Config struct{}
