package main

import "os"

// The example plays two rounds and prints the events: round 2's tie goes to
// Rob because Jay chose in round 1 (award not previous.chooser).
func Example() {
	if err := play(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// round 1 begins
	//   hook      hook start
	//   roll      Jay rolls 4 for priority
	//   roll      Rob rolls 2 for priority
	//   decision  Jay chooses to go first
	//   placement priority #1: Jay, by Jay's choice (choice first by winner)
	//   placement priority #2: Rob, by Jay's choice (choice first by winner)
	//   hook      hook end
	// round 1 ends
	//   => holder Jay, chosen by Jay
	// round 2 begins
	//   hook      hook start
	//   roll      Jay rolls 3 for priority
	//   roll      Rob rolls 3 for priority
	//   tie       tie between Jay and Rob on highest roll d6
	//   award     Rob goes before Jay (award not previous.chooser)
	//   decision  Rob chooses to go first
	//   placement priority #1: Rob, by Rob's choice (choice first by winner)
	//   placement priority #2: Jay, by Rob's choice (choice first by winner)
	//   hook      hook end
	// round 2 ends
	//   => holder Rob, chosen by Rob
}
